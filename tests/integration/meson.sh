#!/usr/bin/env bash
# meson.sh - adcc as the C and C++ compiler of a Meson project.
#
# Meson identifies a compiler from the output of --version: "clang" in it
# makes it a Clang, and the first version number on it is taken as clang's
# version, which decides the language standards Meson offers. Checks that a
# project configured with CC=adcc CXX=adcc++:
#   1. gets compiler id "clang" and cc.version() / cxx.version() equal to the
#      clang version adcc is built on (its __clang_major__ ... macros);
#   2. configures with c_std gnu17, c17, c18 and c2x (each one Meson offers
#      only to clang 6 or 9 and later) and cpp_std c++20, then builds and runs
#      with the standard it asked for;
#   3. with -Db_lto=true and AR naming LLVM 22's llvm-ar (as
#      docs/build-systems.md says), a static library of -flto objects is
#      archived and linked.
# Exits with 77 (reported by ctest as skipped) when meson is not installed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

if ! command -v meson >/dev/null 2>&1; then
  echo "SKIP: meson is not installed (Debian package meson)"
  exit 77
fi
require_env ADCC ADCCXX
require_tool ninja "install ninja-build"
require_exe "$ADCC"
require_exe "$ADCCXX"
clean_build_env

new_workdir meson
work=$WORKDIR
src=$work/src
mkdir -p "$src"
cat >"$src/meson.build" <<'EOF'
project('detect', 'c', 'cpp')
foreach lang : ['c', 'cpp']
  comp = meson.get_compiler(lang)
  message('detect: @0@ @1@ @2@'.format(lang, comp.get_id(), comp.version()))
endforeach
executable('std_c', 'std.c')
executable('std_cxx', 'std.cpp')
square = static_library('square', 'square.c')
executable('use_square', 'use_square.c', link_with: square)
EOF
printf 'double square(double x) { return x * x; }\n' >"$src/square.c"
cat >"$src/use_square.c" <<'EOF'
#include <stdio.h>
double square(double);
int main(void) { printf("%g\n", square(3.0)); return 0; }
EOF
printf '#include <stdio.h>\nint main(void) { printf("%%ld\\n", (long)__STDC_VERSION__); return 0; }\n' \
  >"$src/std.c"
printf '#include <cstdio>\nint main() { std::printf("%%ld\\n", (long)__cplusplus); }\n' \
  >"$src/std.cpp"

clang_version=$(printf '__clang_major__.__clang_minor__.__clang_patchlevel__\n' |
  "$ADCC" -E -P -x c - | tr -d ' \n')
echo "$(meson --version 2>/dev/null | sed 's/^/meson /'); adcc's clang macros: $clang_version"

# std_value STD : the __STDC_VERSION__ that c_std=STD gives.
std_value() {
  case $1 in
    gnu17 | c17 | c18) echo 201710 ;;
    c2x) echo 202311 ;;
  esac
}

first=1
for std in gnu17 c17 c18 c2x; do
  step "meson setup with c_std=$std"
  build=$work/build-$std
  run_logged "$work/setup-$std.log" env CC="$ADCC" CXX="$ADCCXX" \
    meson setup "$build" "$src" -Dc_std="$std" -Dcpp_std=c++20
  if ((first)); then
    for lang in c cpp; do
      line=$(grep -E "^Message: detect: $lang " "$work/setup-$std.log") ||
        fail "the meson log has no '$lang' line"
      [[ $line == "Message: detect: $lang clang $clang_version" ]] ||
        fail "meson reports '$line', expected '$lang clang $clang_version'"
      pass "meson: $lang compiler id clang, version() $clang_version"
    done
    first=0
  fi
  run_logged "$work/build-$std.log" ninja -C "$build"
  got=$("$build/std_c")
  # c2x is C23 for clang 22 (202311).
  [[ $got == "$(std_value "$std")" ]] ||
    fail "c_std=$std: __STDC_VERSION__ is $got, expected $(std_value "$std")"
  got=$("$build/std_cxx")
  [[ $got == 202002 ]] || fail "cpp_std=c++20: __cplusplus is $got"
  pass "c_std=$std (__STDC_VERSION__ $(std_value "$std")) and cpp_std=c++20 build and run"
done

step "meson setup -Db_lto=true with AR=<LLVM 22's llvm-ar>"
build=$work/build-lto
run_logged "$work/setup-lto.log" env CC="$ADCC" CXX="$ADCCXX" \
  AR="$("$ADCC" -print-prog-name=llvm-ar)" meson setup "$build" "$src" -Db_lto=true
run_logged "$work/build-lto.log" ninja -C "$build" -v
grep -q -- '-flto' "$work/build-lto.log" || fail "b_lto=true: nothing was compiled with -flto"
got=$("$build/use_square")
[[ $got == 9 ]] || fail "b_lto=true: the program prints '$got', expected 9"
pass "b_lto=true: a static library of -flto objects is archived and linked"
