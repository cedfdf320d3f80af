#!/usr/bin/env bash
# make-example.sh - adcc as the CC of a GNU Make project.
#
# Builds a copy of examples/make-project with `make CC=$ADCC` and checks:
#   1. the build uses adcc for every compile and link, and `make check`
#      passes (the programs print the expected checksums);
#   2. a second `make` has nothing to do;
#   3. the -MMD -MP dependency files work: touching a header rebuilds exactly
#      the objects that include it, and a header that is deleted after its
#      #include is removed does not break the build;
#   4. parallel builds (`make -j8`, many adcc processes at once) work, three
#      times in a row plus two builds running at the same time, and give
#      byte-identical objects and the expected output every time.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC ADCC_SOURCE_DIR
require_tool make "install GNU make"
require_exe "$ADCC"
clean_build_env

new_workdir make-example
work=$WORKDIR
proj=$work/make-project
cp -R "$ADCC_SOURCE_DIR/examples/make-project" "$proj"
rm -rf "$proj/build" # a stale build in the source tree must not leak in
cd "$proj"

lib_objects=(vec_basic.o vec_reduce.o mat.o poly.o checksum.o)
programs=(vecdemo polydemo)

# objects_newer_than STAMP : prints the names of build/*.o newer than STAMP.
objects_newer_than() {
  find build -name '*.o' -newer "$1" -printf '%f\n' | sort | tr '\n' ' '
}

# touch_and_rebuild HEADER EXPECTED : touches HEADER, runs make and checks
# that exactly the objects in EXPECTED ("a.o b.o ", sorted) were rebuilt.
touch_and_rebuild() {
  local header=$1 expected=$2 rebuilt
  sleep 1 # separate the new timestamps from the last build on coarse clocks
  touch "$work/stamp"
  sleep 1
  touch "$header"
  run_logged "$work/touch-$header.log" make CC="$ADCC"
  rebuilt=$(objects_newer_than "$work/stamp")
  [[ "$rebuilt" == "$expected" ]] ||
    fail "after touching $header, rebuilt objects are '$rebuilt', expected '$expected'"
  pass "touching $header rebuilt exactly: $expected"
}

# object_digests DIR : prints a checksum line per library object in DIR.
object_digests() {
  (cd "$1" && sha256sum "${lib_objects[@]}")
}

step "serial build: make CC=$ADCC"
run_logged "$work/build.log" make CC="$ADCC"
# Every compiler command (5 library objects, 2 compile-and-link programs)
# must have run adcc, i.e. the Makefile honoured CC.
ncalls=$(grep -c -F -- "$ADCC " "$work/build.log" || true)
[[ "$ncalls" -eq 7 ]] ||
  fail "expected 7 adcc invocations in the make log, found $ncalls"
pass "make ran adcc for all 7 compiler commands"
for f in "${lib_objects[@]}"; do
  [[ -s "build/$f" && -s "build/${f%.o}.d" ]] ||
    fail "build/$f or its dependency file build/${f%.o}.d is missing"
done
pass "every object has its dependency file"

step "make check"
run_logged "$work/check.log" make check CC="$ADCC"
cat "$work/check.log"
for p in "${programs[@]}"; do
  expect_same "expected/$p.out" "build/$p.out" "output of $p"
done
pass "both programs print the expected output"

step "nothing to do on a second make"
make -q CC="$ADCC" || fail "make -q reports the build as out of date right after a build"
pass "make -q: up to date"

step "header dependencies (-MMD)"
grep -q 'vecops\.h' build/vecdemo.d ||
  fail "build/vecdemo.d does not list vecops.h: $(cat build/vecdemo.d)"
grep -q 'checksum\.h' build/polydemo.d ||
  fail "build/polydemo.d does not list checksum.h: $(cat build/polydemo.d)"
pass "program dependency files list the headers they include"
touch_and_rebuild poly.h "poly.o "
touch_and_rebuild vecops.h "mat.o vec_basic.o vec_reduce.o "
touch_and_rebuild checksum.h "checksum.o "
[[ build/vecdemo -nt "$work/stamp" && build/polydemo -nt "$work/stamp" ]] ||
  fail "the programs were not rebuilt after checksum.h changed"
pass "programs including checksum.h were rebuilt"

step "removed header (-MP)"
# Add a header to mat.c, build, then drop both the #include and the header.
# Without the phony targets that -MP writes, make would stop with
# "No rule to make target 'extra.h'".
printf '/* extra.h - temporary header of the -MP check */\n' >extra.h
{ printf '#include "extra.h"\n'; cat "$ADCC_SOURCE_DIR/examples/make-project/mat.c"; } >mat.c
run_logged "$work/extra-add.log" make CC="$ADCC"
grep -q 'extra\.h' build/mat.d || fail "build/mat.d does not list extra.h"
rm extra.h
cp "$ADCC_SOURCE_DIR/examples/make-project/mat.c" mat.c
run_logged "$work/extra-remove.log" make CC="$ADCC"
grep -q 'extra\.h' build/mat.d && fail "build/mat.d still lists the removed extra.h"
pass "deleting a no-longer-included header does not break the build"
run_logged "$work/check-mp.log" make check CC="$ADCC"

step "parallel builds: make -j8 CC=$ADCC, three times"
for run in 1 2 3; do
  run_logged "$work/clean-$run.log" make clean
  run_logged "$work/parallel-$run.log" make -j8 CC="$ADCC"
  run_logged "$work/parallel-check-$run.log" make check CC="$ADCC"
  for p in "${programs[@]}"; do
    expect_same "expected/$p.out" "build/$p.out" "output of $p (parallel run $run)"
  done
  object_digests build >"$work/digests-$run"
  if [[ $run -eq 1 ]]; then
    pass "parallel run 1: outputs as expected"
  else
    expect_same "$work/digests-1" "$work/digests-$run" \
      "objects of parallel run $run vs run 1 (adcc output must be deterministic)"
    pass "parallel run $run: outputs as expected, objects identical to run 1"
  fi
done

step "two parallel builds at the same time (separate build directories)"
make -j4 CC="$ADCC" BUILD=build-a >"$work/concurrent-a.log" 2>&1 &
pid_a=$!
make -j4 CC="$ADCC" BUILD=build-b >"$work/concurrent-b.log" 2>&1 &
pid_b=$!
status=0
wait "$pid_a" || status=1
wait "$pid_b" || status=1
if [[ $status -ne 0 ]]; then
  tail -n 20 "$work/concurrent-a.log" "$work/concurrent-b.log" >&2
  fail "a concurrent build failed"
fi
for dir in build-a build-b; do
  run_logged "$work/check-$dir.log" make check CC="$ADCC" BUILD="$dir"
  object_digests "$dir" >"$work/digests-$dir"
  expect_same "$work/digests-1" "$work/digests-$dir" "objects of concurrent build $dir"
done
pass "concurrent builds: outputs as expected, objects identical"

echo
echo "make-example: all checks passed"
