#!/usr/bin/env bash
# reproducible.sh - the same objects from the same sources in another
# directory.
#
# Copies the same sources into two build directories and compiles them
# there as CMake does (absolute source paths, -ffile-prefix-map=<dir>=/src),
# then checks that the two directories hold byte-identical files:
#   1. objects of C and C++ files with derivatives (forward, reverse, custom
#      rules, C++ containers) at -O0, -O2 and -O2 -g, and with
#      -fdebug-prefix-map plus -fmacro-prefix-map instead of
#      -ffile-prefix-map, under SOURCE_DATE_EPOCH; clang-22's objects of the
#      same files are identical too (the setup itself is reproducible);
#   2. the IR the objects carry (.adcc.ir) names no path of the build
#      directory, compressed or not;
#   3. a static library (llvm-ar-22 with D) and a program whose gradient
#      of a function of another file is made at link time; the program's
#      gradient matches the analytic one;
#   4. the same compile twice in one directory (nothing written in the
#      order of a hash table of pointers), and under other settings of
#      glibc's allocator (GLIBC_TUNABLES: no thread cache, small mmap
#      threshold), which move where objects are allocated and which freed
#      addresses are reused: an entry of a map kept for a deleted
#      instruction once gave a new one its facts (a derivative made twice,
#      a debug location taken or not). scripts/determinism.sh does the same
#      for every e2e source, by hand.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC ADCCXX ADCC_SOURCE_DIR CLANG
require_exe "$ADCC"
require_exe "$ADCCXX"
clean_build_env
llvm_bin=$(dirname "$CLANG")
ar="$llvm_bin/llvm-ar"
objcopy="$llvm_bin/llvm-objcopy"
[[ -x "$ar" && -x "$objcopy" ]] || fail "llvm-ar and llvm-objcopy of LLVM 22 not found beside $CLANG"

new_workdir reproducible
work=$WORKDIR
e2e=$ADCC_SOURCE_DIR/tests/e2e

# The sources: e2e tests with derivatives of each kind, and a program whose
# gradient is made at link time.
populate() {
  mkdir -p "$1"
  cp "$e2e"/rev_control.c "$e2e"/custom_rules.c "$e2e"/rev_cpp.cpp \
    "$e2e"/*.h "$1"/
  cat >"$1/model.c" <<'EOF'
/* f(x) = x0^2 x1 + sin(x1), defined here, differentiated at link time. */
#include <math.h>
static const char *origin = __FILE__;
const char *model_origin(void) { return origin; }
double model(const double *x) { return x[0] * x[0] * x[1] + sin(x[1]); }
EOF
  cat >"$1/main.c" <<'EOF'
#include <math.h>
#include <stdio.h>
double model(const double *x);
extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
int main(void) {
  double x[2] = {1.5, 0.5}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx);
  double want0 = 2 * x[0] * x[1], want1 = x[0] * x[0] + cos(x[1]);
  double h = 1e-6, xp[2] = {x[0], x[1] + h}, xm[2] = {x[0], x[1] - h};
  double fd1 = (model(xp) - model(xm)) / (2 * h);
  int ok = fabs(dx[0] - want0) < 1e-12 && fabs(dx[1] - want1) < 1e-12 &&
           fabs(dx[1] - fd1) < 1e-6;
  printf("%s %.8f %.8f\n", ok ? "ok" : "WRONG", dx[0], dx[1]);
  return !ok;
}
EOF
}

# build DIR TAG FLAGS... : compiles every source of DIR, named by its
# absolute path, into DIR/TAG-<file>.o, with the flags plus the -I that
# the e2e sources need.
build() {
  local dir=$1 tag=$2 src cc
  shift 2
  for src in rev_control.c custom_rules.c rev_cpp.cpp model.c main.c; do
    cc=$ADCC
    [[ $src == *.cpp ]] && cc=$ADCCXX
    (cd "$dir" && "$cc" "$@" -I"$dir" -c "$dir/$src" -o "$dir/$tag-${src%.*}.o")
  done
}

# compare TAG WHAT : the objects of TAG are the same in both directories.
compare() {
  local obj
  for obj in "$work/one/$1"-*.o; do
    expect_same "$obj" "$work/two/${obj##*/}" "$2"
  done
  pass "$2"
}

populate "$work/one"
populate "$work/two"
export SOURCE_DATE_EPOCH=1700000000

step "objects compiled in two directories"
configs=(
  "O0:-O0 -ffile-prefix-map=@=/src"
  "O2:-O2 -ffile-prefix-map=@=/src"
  "O2g:-O2 -g -ffile-prefix-map=@=/src"
  "split:-O1 -g -fdebug-prefix-map=@=/src -fmacro-prefix-map=@=/src"
)
for config in "${configs[@]}"; do
  tag=${config%%:*}
  for dir in "$work/one" "$work/two"; do
    flags=${config#*:}
    # shellcheck disable=SC2086  # the flags are words
    run_logged "$work/build.log" build "$dir" "$tag" ${flags//@/$dir}
  done
  compare "$tag" "identical objects ($tag: ${config#*:})"
done

step "clang-22 in the same setup"
for dir in "$work/one" "$work/two"; do
  (cd "$dir" && "$CLANG" -O2 -g -ffile-prefix-map="$dir"=/src -c "$dir/model.c" -o "$dir/clang-model.o")
done
compare clang "clang-22's objects are identical too"

step "no path of the build directories in the carried IR"
# carried_ir OBJ : prints the bitcode of OBJ's one frame of .adcc.ir
# (header: tag, payload length; a compressed payload starts with the
# bitcode's length).
carried_ir() {
  local section=$work/section.bin tag len
  "$objcopy" --dump-section .adcc.ir="$section" "$1" /dev/null
  tag=$(head -c 8 "$section")
  len=$(od -An -t u8 -j 8 -N 8 "$section" | tr -d ' ')
  case $tag in
  ADCC.IR1) tail -c +17 "$section" | head -c "$len" ;;
  ADCC.IRZ)
    require_tool zstd "install zstd to read the compressed IR"
    tail -c +25 "$section" | head -c $((len - 8)) | zstd -dc ;;
  *) fail "$1: its .adcc.ir starts with '$tag', not a frame tag" ;;
  esac
}
for obj in "$work/one"/O*-model.o "$work/one"/split-*.o "$work/one"/O2g-rev_cpp.o; do
  ! grep -q "$work" "$obj" || fail "$obj names its build directory"
  carried_ir "$obj" >"$work/carried.bc"
  "$llvm_bin/llvm-dis" -o "$work/carried.ll" <"$work/carried.bc"
  ! grep -q "$work" "$work/carried.ll" ||
    fail "$obj: its carried IR names the build directory: $(grep -m1 "$work" "$work/carried.ll")"
done
carried_ir "$work/one/O2-model.o" | "$llvm_bin/llvm-dis" -o "$work/carried.ll"
grep -q '^source_filename = "/src/model.c"$' "$work/carried.ll" ||
  fail "the carried IR's source file name is not mapped: $(grep -m1 source_filename "$work/carried.ll")"
pass "the objects and the IR they carry name no build directory"

step "a static library and a program with a derivative made at link time"
for dir in "$work/one" "$work/two"; do
  (cd "$dir" &&
    rm -f libmodel.a && "$ar" rcsD libmodel.a O2-model.o &&
    "$ADCC" O2-main.o -L. -lmodel -o prog -lm)
done
expect_same "$work/one/libmodel.a" "$work/two/libmodel.a" "static libraries"
pass "identical static libraries"
expect_same "$work/one/prog" "$work/two/prog" "programs"
pass "identical programs"
out=$("$work/one/prog") || fail "the program's gradient is wrong: $out"
[[ $out == "ok 1.50000000 3.12758256" ]] || fail "unexpected output: $out"
pass "the gradient made at link time matches the analytic one ($out)"

step "the same compile twice in one directory"
(cd "$work/one" && for i in 1 2; do
  "$ADCCXX" -O2 -g -I. -c "$work/one/rev_cpp.cpp" -o "again$i.o"
done)
expect_same "$work/one/again1.o" "$work/one/again2.o" "two compiles"
pass "identical objects from two compiles"

step "the same compiles under other allocator settings"
cp "$e2e"/rev_allocator_pointers.c "$work/one/"
tunings=("glibc.malloc.tcache_count=0"
  "glibc.malloc.mmap_threshold=4096:glibc.malloc.top_pad=1048576")
for src in rev_cpp.cpp rev_allocator_pointers.c; do
  cc=$ADCC
  [[ $src == *.cpp ]] && cc=$ADCCXX
  for level in -O0 -O2; do
    (cd "$work/one" && "$cc" $level -I. -c "$src" -o base.o)
    for tuning in "${tunings[@]}"; do
      (cd "$work/one" && GLIBC_TUNABLES=$tuning "$cc" $level -I. -c "$src" -o tuned.o)
      expect_same "$work/one/base.o" "$work/one/tuned.o" "$src $level with $tuning"
    done
  done
done
pass "identical objects whatever the allocator reuses"
