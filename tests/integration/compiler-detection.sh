#!/usr/bin/env bash
# compiler-detection.sh - how build systems identify adcc and its version.
#
# adcc predefines clang's macros (__clang__, __clang_major__ ...), so build
# systems take it for the clang it is built on; the version they read must be
# that clang's, not adcc's own. Checks, for adcc and adcc++:
#   1. the first line of --version names the clang version first (the first
#      version number on it, which Meson and scripts read) and adcc's own
#      version after it; the clang version is the one in __clang_major__,
#      __clang_minor__ and __clang_patchlevel__ (what autoconf macros such as
#      AX_COMPILER_VENDOR and AX_COMPILER_VERSION read), and -dumpversion
#      prints it too;
#   2. CMake with -DCMAKE_C_COMPILER / -DCMAKE_CXX_COMPILER (no toolchain
#      file) reports CMAKE_<LANG>_COMPILER_ID Clang with that version, and
#      C17 and C++20 project standards work.
# Meson is checked by meson.sh.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC ADCCXX
require_tool cmake "install cmake"
require_tool ninja "install ninja-build"
require_tool python3 "install python3"
require_exe "$ADCC"
require_exe "$ADCCXX"
clean_build_env

new_workdir compiler-detection
work=$WORKDIR

# macro_version CC LANG : __clang_major__.__clang_minor__.__clang_patchlevel__
# as the preprocessor of CC expands them.
macro_version() {
  printf '__clang_major__.__clang_minor__.__clang_patchlevel__\n' |
    "$1" -x "$2" -E -P - | tr -d ' \n'
}

step "--version, -dumpversion and the predefined macros agree"
clang_version=""
for cc in "$ADCC" "$ADCCXX"; do
  lang=c
  [[ $cc == "$ADCCXX" ]] && lang=c++
  macros=$(macro_version "$cc" "$lang")
  [[ $macros =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    fail "$cc: the clang version macros expand to '$macros'"
  "$cc" --version >"$work/version.txt"
  first=$(head -n 1 "$work/version.txt")
  # The first version number of the output, found as Meson's search_version
  # finds it (one or two digits, then dot-separated numbers).
  found=$(python3 -c '
import re, sys
m = re.search(r"(?<![\d.])\d{1,2}(\.\d+)+(-[a-zA-Z0-9]+)?", sys.stdin.read())
print(m.group(0) if m else "")' <"$work/version.txt")
  [[ $found == "$macros" ]] ||
    fail "$cc --version: the first version number is '$found', the clang macros say $macros: '$first'"
  [[ $first == *"clang version $macros "* ]] ||
    fail "$cc --version: the first line does not say 'clang version $macros': '$first'"
  [[ $first =~ \(adcc\ version\ [0-9]+\.[0-9]+\.[0-9]+\)$ ]] ||
    fail "$cc --version: the first line does not end with adcc's version: '$first'"
  dump=$("$cc" -dumpversion)
  [[ $dump == "$macros" ]] ||
    fail "$cc -dumpversion prints '$dump', the clang macros say $macros"
  # autoconf's AC_PROG_CC takes a compiler that defines __GNUC__ for GNU C.
  printf '#ifndef __GNUC__\nchoke me\n#endif\nint main(void){return 0;}\n' >"$work/gnu.c"
  "$cc" -x "$lang" -c -o "$work/gnu.o" "$work/gnu.c" ||
    fail "$cc does not define __GNUC__ (autoconf's GNU compiler check)"
  pass "$(basename "$cc"): '$first'; -dumpversion $dump; macros $macros"
  clang_version=$macros
done

step "CMake with -DCMAKE_C_COMPILER / -DCMAKE_CXX_COMPILER"
mkdir -p "$work/cmake"
cat >"$work/cmake/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(detect C CXX)
set(CMAKE_C_STANDARD 17)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
foreach(lang C CXX)
  message(STATUS "detect: ${lang} ${CMAKE_${lang}_COMPILER_ID} ${CMAKE_${lang}_COMPILER_VERSION}")
endforeach()
add_executable(std_c std.c)
add_executable(std_cxx std.cpp)
EOF
printf '#include <stdio.h>\nint main(void) { printf("%%ld\\n", (long)__STDC_VERSION__); return 0; }\n' \
  >"$work/cmake/std.c"
printf '#include <cstdio>\nint main() { std::printf("%%ld\\n", (long)__cplusplus); }\n' \
  >"$work/cmake/std.cpp"
run_logged "$work/cmake.log" cmake -S "$work/cmake" -B "$work/cmake/build" \
  -G Ninja -DCMAKE_C_COMPILER="$ADCC" -DCMAKE_CXX_COMPILER="$ADCCXX"
for lang in C CXX; do
  line=$(grep -E "^-- detect: $lang " "$work/cmake.log") ||
    fail "the configure log has no '$lang' line"
  [[ $line == "-- detect: $lang Clang $clang_version" ]] ||
    fail "CMake reports '$line', expected '$lang Clang $clang_version'"
  pass "CMake: CMAKE_${lang}_COMPILER_ID Clang, CMAKE_${lang}_COMPILER_VERSION $clang_version"
done
run_logged "$work/cmake-build.log" cmake --build "$work/cmake/build"
[[ $("$work/cmake/build/std_c") == 201710 ]] ||
  fail "CMAKE_C_STANDARD 17: __STDC_VERSION__ is $("$work/cmake/build/std_c")"
[[ $("$work/cmake/build/std_cxx") == 202002 ]] ||
  fail "CMAKE_CXX_STANDARD 20: __cplusplus is $("$work/cmake/build/std_cxx")"
pass "CMAKE_C_STANDARD 17 and CMAKE_CXX_STANDARD 20 build and run"
