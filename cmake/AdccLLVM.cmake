# LLVM and Clang 22, as Debian installs them. Debian's LLVMConfig accepts only
# an exact-minor request, and other LLVM versions may be installed beside it,
# so Clang is pinned to the directory LLVM was found in.
find_package(LLVM 22.1 REQUIRED CONFIG
  HINTS /usr/lib/llvm-22/lib/cmake/llvm)
find_package(Clang REQUIRED CONFIG
  PATHS "${LLVM_LIBRARY_DIR}/cmake/clang" NO_DEFAULT_PATH)
message(STATUS "adcc: LLVM ${LLVM_PACKAGE_VERSION} in ${LLVM_INSTALL_PREFIX}")

separate_arguments(ADCC_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")

# LLVM is built with RTTI on and exceptions off.
function(adcc_llvm_target target)
  target_include_directories(${target} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  target_compile_definitions(${target} PUBLIC ${ADCC_LLVM_DEFINITIONS})
  target_compile_options(${target} PRIVATE -fno-exceptions)
endfunction()

# Where the driver finds the Clang resource directory (builtin headers,
# compiler-rt) and LLVM's tools (lld, clang-linker-wrapper). These are facts of
# the LLVM installation found above, passed to the driver at build time.
set(ADCC_LLVM_TOOLS_DIR "${LLVM_TOOLS_BINARY_DIR}")
set(ADCC_CLANG_RESOURCE_DIR
  "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}")

find_program(ADCC_LIT lit HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
find_program(ADCC_FILECHECK FileCheck HINTS "${LLVM_TOOLS_BINARY_DIR}"
  NO_DEFAULT_PATH)
