#!/usr/bin/env bash
# cmake-binutils.sh - CMake picks LLVM 22's binary tools for adcc.
#
# For a Clang compiler CMake looks for llvm-ar, llvm-ranlib, llvm-nm, ld.lld
# ... first in the compiler's directory, then on PATH. adcc installs links to
# LLVM 22's tools beside itself, and its toolchain file sets them. Here PATH
# starts with a directory of fake llvm-ar, llvm-ranlib, llvm-nm and ld.lld
# that fail (as an older LLVM's llvm-ar fails on LLVM 22 bitcode), and a
# project with two static libraries of -flto objects (one through
# CMAKE_C_FLAGS, archived with CMAKE_AR; one with INTERPROCEDURAL_OPTIMIZATION,
# archived with CMAKE_C_COMPILER_AR) and a program that links them is
#   1. configured with -DCMAKE_C_COMPILER=<adcc> (no toolchain file), and
#   2. configured with the toolchain file;
# each time the cache names LLVM 22's tools, no fake tool runs, and the
# program builds and prints the right results. As a control, the same
# configure through a link to adcc in a directory without the tool links
# picks the fake llvm-ar and the build fails: the links are what CMake finds.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC ADCC_BUILD_DIR
require_tool cmake "install cmake"
require_tool ninja "install ninja-build"
require_exe "$ADCC"
clean_build_env

toolchain=$ADCC_BUILD_DIR/share/adcc/cmake/adcc-toolchain.cmake
[[ -f "$toolchain" ]] || fail "toolchain file '$toolchain' is missing from the build tree"
llvm_bin=$(dirname "$("$ADCC" -print-prog-name=llvm-ar)")
[[ -x "$llvm_bin/llvm-ar" ]] || fail "adcc names no LLVM 22 llvm-ar ($llvm_bin)"
llvm_bin=$(realpath "$llvm_bin")
echo "LLVM 22 tools: $llvm_bin"

new_workdir cmake-binutils
work=$WORKDIR

# Fake tools that record their use and fail.
fakes=$work/fake-bin
mkdir -p "$fakes"
for tool in llvm-ar llvm-ranlib llvm-nm ld.lld; do
  cat >"$fakes/$tool" <<EOF
#!/bin/sh
echo "$tool \$*" >>"$work/fake-tools-ran"
echo "fake $tool: not the LLVM 22 tool" >&2
exit 1
EOF
  chmod +x "$fakes/$tool"
done
fake_path=$fakes:$PATH

src=$work/src
mkdir -p "$src"
cat >"$src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(binutils C)
add_library(square STATIC square.c)
target_compile_options(square PRIVATE -flto)
add_library(cube STATIC cube.c)
set_property(TARGET cube PROPERTY INTERPROCEDURAL_OPTIMIZATION ON)
add_executable(powers main.c)
target_link_libraries(powers PRIVATE square cube)
target_link_options(powers PRIVATE -flto)
EOF
printf 'double square(double x) { return x * x; }\n' >"$src/square.c"
printf 'double cube(double x) { return x * x * x; }\n' >"$src/cube.c"
cat >"$src/main.c" <<'EOF'
#include <stdio.h>
double square(double);
double cube(double);
int main(void) {
  printf("%g %g\n", square(3.0), cube(2.0));
  return 0;
}
EOF

# cached_tool BUILD VAR : the value of VAR in BUILD's cache.
cached_tool() {
  sed -n -E "s/^$2:[A-Z]+=(.*)$/\1/p" "$1/CMakeCache.txt"
}

# check_build NAME CMAKE-ARGS... : configures, checks the cached tools,
# builds and runs the program, with the fake tools first on PATH.
check_build() {
  local name=$1 build=$work/$1 var value
  shift
  rm -f "$work/fake-tools-ran"
  run_logged "$work/$name-configure.log" env PATH="$fake_path" \
    cmake -S "$src" -B "$build" -G Ninja "$@"
  for var in CMAKE_AR CMAKE_RANLIB CMAKE_NM CMAKE_LINKER CMAKE_C_COMPILER_AR \
    CMAKE_C_COMPILER_RANLIB; do
    value=$(cached_tool "$build" "$var")
    [[ -n $value && $(realpath "$value") == "$llvm_bin"/* ]] ||
      fail "$name: $var is '$value', not a tool of LLVM 22 ($llvm_bin)"
  done
  pass "$name: CMAKE_AR $(cached_tool "$build" CMAKE_AR), CMAKE_RANLIB, CMAKE_NM, CMAKE_LINKER, CMAKE_C_COMPILER_AR/RANLIB are LLVM 22's"
  run_logged "$work/$name-build.log" env PATH="$fake_path" cmake --build "$build" -v
  [[ ! -e $work/fake-tools-ran ]] ||
    fail "$name: a fake tool ran: $(cat "$work/fake-tools-ran")"
  grep -q -- '-flto' "$work/$name-build.log" || fail "$name: nothing was compiled with -flto"
  local out
  out=$("$build/powers")
  [[ $out == "9 8" ]] || fail "$name: the program prints '$out', expected '9 8'"
  pass "$name: static libraries of -flto objects archived, program linked, prints '$out'"
}

step "-DCMAKE_C_COMPILER=adcc, no toolchain file"
check_build plain -DCMAKE_C_COMPILER="$ADCC"

step "the toolchain file"
check_build toolchain -DCMAKE_TOOLCHAIN_FILE="$toolchain"

step "control: adcc through a directory without the tool links"
mkdir -p "$work/bare-bin"
ln -s "$(realpath "$ADCC")" "$work/bare-bin/adcc"
rm -f "$work/fake-tools-ran"
run_logged "$work/control-configure.log" env PATH="$fake_path" \
  cmake -S "$src" -B "$work/control" -G Ninja -DCMAKE_C_COMPILER="$work/bare-bin/adcc"
[[ $(cached_tool "$work/control" CMAKE_AR) == "$fakes/llvm-ar" ]] ||
  fail "control: CMAKE_AR is '$(cached_tool "$work/control" CMAKE_AR)', expected the fake llvm-ar"
if env PATH="$fake_path" cmake --build "$work/control" >"$work/control-build.log" 2>&1; then
  fail "control: the build with the fake llvm-ar succeeded"
fi
grep -q '^llvm-ar ' "$work/fake-tools-ran" || fail "control: the fake llvm-ar did not run"
pass "control: without the links CMake takes llvm-ar from PATH (the fake), and archiving fails"
