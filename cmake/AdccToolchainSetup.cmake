# Build-speed settings for compiling adcc itself: ccache when present, and a
# fast linker (lld or gold) instead of bfd.
include(CheckCXXSourceCompiles)
include(CheckLinkerFlag)

find_program(ADCC_CCACHE ccache)
if(ADCC_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_C_COMPILER_LAUNCHER "${ADCC_CCACHE}")
  set(CMAKE_CXX_COMPILER_LAUNCHER "${ADCC_CCACHE}")
endif()

foreach(ld lld gold)
  check_linker_flag(CXX "-fuse-ld=${ld}" ADCC_HAVE_LD_${ld})
  if(ADCC_HAVE_LD_${ld})
    add_link_options("-fuse-ld=${ld}")
    break()
  endif()
endforeach()
