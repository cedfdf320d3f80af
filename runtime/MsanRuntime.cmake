# The tape runtime for programs built with -fsanitize=memory:
# libadcc_rt_msan.a, the same C sources instrumented by MemorySanitizer.
# MemorySanitizer needs every byte a program reads to have been written by
# instrumented code (or an intercepted libc call): values the plain
# runtime wrote to the tape were "uninitialized" to it when the reverse
# sweep read them back. Built by LLVM 22's clang (the C compiler of this
# build may be GCC), without the MPI rules (MPI's library is not
# instrumented either: programs that make MPI calls cannot use
# MemorySanitizer). The driver links it where clang's driver would link
# MemorySanitizer's runtime (docs/driver.md#sanitizers).
find_program(ADCC_MSAN_CLANG clang HINTS "${ADCC_LLVM_TOOLS_DIR}"
  NO_DEFAULT_PATH)
find_program(ADCC_MSAN_AR llvm-ar HINTS "${ADCC_LLVM_TOOLS_DIR}"
  NO_DEFAULT_PATH)
if(NOT ADCC_MSAN_CLANG OR NOT ADCC_MSAN_AR OR NOT EXISTS
   "${ADCC_CLANG_RESOURCE_DIR}/lib/linux/libclang_rt.msan-x86_64.a")
  message(STATUS "adcc: no MemorySanitizer runtime (libclang-rt-22-dev); "
    "-fsanitize=memory programs link the plain tape runtime")
  return()
endif()

get_target_property(ADCC_RT_MSAN_SOURCES adcc_rt SOURCES)
list(FILTER ADCC_RT_MSAN_SOURCES EXCLUDE REGEX "lib/mpi/")
set(ADCC_RT_MSAN_OBJECTS)
foreach(src ${ADCC_RT_MSAN_SOURCES})
  string(MAKE_C_IDENTIFIER "${src}" id)
  set(obj "${CMAKE_CURRENT_BINARY_DIR}/msan/${id}.o")
  add_custom_command(OUTPUT "${obj}"
    COMMAND "${ADCC_MSAN_CLANG}" -fsanitize=memory -fPIC -O2 -DNDEBUG
      -std=gnu11 -fvisibility=hidden -fno-math-errno -pthread
      -I "${CMAKE_CURRENT_SOURCE_DIR}/include"
      -MD -MF "${obj}.d" -c "${CMAKE_CURRENT_SOURCE_DIR}/${src}" -o "${obj}"
    DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/${src}"
    DEPFILE "${obj}.d"
    COMMENT "Building ${src} for the MemorySanitizer tape runtime"
    VERBATIM)
  list(APPEND ADCC_RT_MSAN_OBJECTS "${obj}")
endforeach()
set(ADCC_RT_MSAN_ARCHIVE "${ADCC_BUILD_RESOURCE_DIR}/lib/libadcc_rt_msan.a")
add_custom_command(OUTPUT "${ADCC_RT_MSAN_ARCHIVE}"
  COMMAND "${CMAKE_COMMAND}" -E rm -f "${ADCC_RT_MSAN_ARCHIVE}"
  COMMAND "${ADCC_MSAN_AR}" rcsD "${ADCC_RT_MSAN_ARCHIVE}"
    ${ADCC_RT_MSAN_OBJECTS}
  DEPENDS ${ADCC_RT_MSAN_OBJECTS}
  COMMENT "Archiving the MemorySanitizer tape runtime"
  VERBATIM)
add_custom_target(adcc_rt_msan ALL DEPENDS "${ADCC_RT_MSAN_ARCHIVE}")
install(FILES "${ADCC_RT_MSAN_ARCHIVE}"
  DESTINATION ${ADCC_RESOURCE_SUBDIR}/lib)
