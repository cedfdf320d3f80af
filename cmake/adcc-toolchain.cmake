# adcc-toolchain.cmake - CMake toolchain file that builds a project with adcc.
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/adcc/cmake/adcc-toolchain.cmake \
#         -S <source> -B <build>
#
# It selects <root>/bin/adcc as the C compiler and <root>/bin/adcc++ as the
# C++ compiler. <root> is, in order of precedence:
#   1. the CMake variable ADCC_ROOT            (-DADCC_ROOT=<prefix>),
#   2. the environment variable ADCC_ROOT      (ADCC_ROOT=<prefix> cmake ...),
#   3. the prefix this file lives in: it is installed as
#      <prefix>/share/adcc/cmake/adcc-toolchain.cmake, and the adcc build tree
#      has the same layout, so this works from an install and a build tree.
# ADCC_ROOT, in either form, must be an absolute path.
# The root found on the first configure is stored in the cache (ADCC_ROOT),
# so later re-runs of cmake do not depend on the environment, just as
# CMAKE_C_COMPILER does not depend on CC after the first run.
#
# adcc predefines __clang__ as clang does, so CMake identifies it as "Clang"
# (CMAKE_C_COMPILER_ID / CMAKE_CXX_COMPILER_ID) and applies its Clang rules:
# flags, compiler-generated dependency files (-MD -MT -MF) for the Ninja and
# Makefile generators, and compile_commands.json entries that name adcc.
#
# Uses only long-standing CMake commands (no IN_LIST, which depends on a
# policy setting of the including project; no cmake_path()).

# Resolve the root. This file is read several times per configure (once per
# enabled language and again in every try_compile() project); each read must
# come to the same answer.
if(NOT "${ADCC_ROOT}" STREQUAL "")
  set(_adcc_root "${ADCC_ROOT}")
  set(_adcc_root_origin "the CMake variable ADCC_ROOT")
elseif(NOT "$ENV{ADCC_ROOT}" STREQUAL "")
  set(_adcc_root "$ENV{ADCC_ROOT}")
  set(_adcc_root_origin "the environment variable ADCC_ROOT")
else()
  # <root>/share/adcc/cmake/ -> <root>
  set(_adcc_root "${CMAKE_CURRENT_LIST_DIR}/../../..")
  set(_adcc_root_origin "the location of this toolchain file")
endif()
# A relative path would be read relative to a different directory in each
# try_compile() project; require an absolute one.
if(NOT IS_ABSOLUTE "${_adcc_root}")
  message(FATAL_ERROR
    "adcc-toolchain.cmake: ADCC_ROOT must be an absolute path, but "
    "${_adcc_root_origin} is '${_adcc_root}'.")
endif()
# Normalize (drops the "../" parts). No REALPATH: adcc++ may be a symbolic
# link to adcc that selects C++ mode by its name, so the name must be kept.
get_filename_component(_adcc_root "${_adcc_root}" ABSOLUTE)
if(_adcc_root STREQUAL "/")
  set(_adcc_bin "/bin")
else()
  set(_adcc_bin "${_adcc_root}/bin")
endif()

foreach(_adcc_tool adcc adcc++)
  if(NOT EXISTS "${_adcc_bin}/${_adcc_tool}"
     OR IS_DIRECTORY "${_adcc_bin}/${_adcc_tool}")
    message(FATAL_ERROR
      "adcc-toolchain.cmake: cannot find the adcc compiler "
      "'${_adcc_bin}/${_adcc_tool}' (the adcc root "
      "'${_adcc_root}' was taken from ${_adcc_root_origin}).\n"
      "Point ADCC_ROOT at the adcc installation prefix, the directory that "
      "contains bin/adcc and bin/adcc++: configure with "
      "-DADCC_ROOT=<prefix>, or set the environment variable ADCC_ROOT "
      "before the first configure of this build directory.")
  endif()
endforeach()

set(ADCC_ROOT "${_adcc_root}" CACHE PATH
  "adcc installation prefix: the directory that contains bin/adcc")

set(CMAKE_C_COMPILER "${_adcc_bin}/adcc")
set(CMAKE_CXX_COMPILER "${_adcc_bin}/adcc++")

# try_compile() projects (check_c_source_compiles() and friends, and CMake's
# own compiler checks) read this file again in a fresh project without the
# caller's cache; forward ADCC_ROOT so they resolve the same compilers.
list(FIND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ADCC_ROOT _adcc_index)
if(_adcc_index EQUAL -1)
  list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ADCC_ROOT)
endif()

unset(_adcc_index)
unset(_adcc_tool)
unset(_adcc_root_origin)
unset(_adcc_bin)
unset(_adcc_root)
