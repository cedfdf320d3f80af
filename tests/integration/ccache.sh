#!/usr/bin/env bash
# ccache.sh - adcc behind ccache.
#
# With a private cache directory, checks:
#   1. `ccache $ADCC -c` twice on the same C file: a miss, then a direct-mode
#      hit; the cached object is byte-identical to the first one and to an
#      object compiled without ccache; the dependency file (-MD -MF) is
#      restored on the hit;
#   2. the same in preprocessor mode (direct mode off), which hashes the
#      output of `adcc -E`;
#   3. the same for C++ with adcc++, and with compiler_type=clang forced;
#   4. changing an included header or the flags is a miss (no stale hit);
#   5. `make CC="ccache $ADCC"` on examples/make-project: the first build
#      misses, a clean rebuild hits for every object and passes `make check`.
# ccache is a project dependency: the test fails if it is not installed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=buildsys-common.sh
source "$here/buildsys-common.sh"

require_env ADCC ADCCXX ADCC_SOURCE_DIR
require_tool ccache "ccache is a dependency of adcc's test suite: apt-get install ccache"
require_tool make "install GNU make"
require_exe "$ADCC"
require_exe "$ADCCXX"
clean_build_env

new_workdir ccache
work=$WORKDIR
cd "$work"

# A private cache with default settings: drop every CCACHE_* variable of the
# caller and point the configuration file at an empty one.
while IFS= read -r var; do
  unset "$var"
done < <(compgen -e | grep '^CCACHE_' || true)
export CCACHE_DIR=$work/cache
export CCACHE_CONFIGPATH=$work/ccache.conf
: >"$CCACHE_CONFIGPATH"
echo "$(ccache --version | head -n 1), cache in $CCACHE_DIR"

# ccache_stat NAME : prints one counter of `ccache --print-stats`.
ccache_stat() {
  ccache --print-stats | awk -v key="$1" '$1 == key { print $2; found = 1 }
    END { if (!found) print "missing" }'
}

# expect_stats MISSES DIRECT_HITS PREPROCESSED_HITS WHAT : checks the
# counters since the last `ccache -z`.
expect_stats() {
  local got
  got="$(ccache_stat cache_miss) $(ccache_stat direct_cache_hit) $(ccache_stat preprocessed_cache_hit)"
  [[ "$got" == "$1 $2 $3" ]] ||
    fail "$4: ccache counters (misses, direct hits, preprocessed hits) are '$got', expected '$1 $2 $3'"
}

# The test sources: a header of our own and <adcc.h>, found without -I.
cat >scale.h <<'EOF'
#define SCALE 3.0
EOF
cat >unit.c <<'EOF'
#include "scale.h"
#include <adcc.h>
double scaled_push(double x) {
  adcc_tape_push_f64(adcc_tape_thread(), x);
  return SCALE * x;
}
EOF
cat >unit.cpp <<'EOF'
#include "scale.h"
#include <adcc.h>
#include <vector>
template <typename T> T total(const std::vector<T> &v) {
  adcc::TapeScope scope;
  T s = 0;
  for (const T &x : v) s += SCALE * x;
  return s;
}
double use(const std::vector<double> &v) { return total(v); }
EOF

# hit_after_miss COMPILER SOURCE MODE : compiles SOURCE twice through ccache
# and checks miss-then-hit, identical objects and a restored dependency
# file. MODE is "direct" or "preprocessed".
hit_after_miss() {
  local cc=$1 source=$2 mode=$3 name
  name=$(basename "$cc")-${source}-$mode
  ccache -C >/dev/null
  ccache -z >/dev/null
  ccache "$cc" -O2 -MD -MF "$name-1.d" -c "$source" -o "$name-1.o" ||
    fail "ccache $cc -c $source failed"
  expect_stats 1 0 0 "first compilation of $source"
  rm "$name-1.d"
  ccache "$cc" -O2 -MD -MF "$name-1.d" -c "$source" -o "$name-2.o" ||
    fail "second ccache $cc -c $source failed"
  if [[ $mode == direct ]]; then
    expect_stats 1 1 0 "second compilation of $source (direct mode)"
  else
    expect_stats 1 0 1 "second compilation of $source (preprocessor mode)"
  fi
  expect_same "$name-1.o" "$name-2.o" "object from the cache vs the compiled one"
  if [[ ! -s "$name-1.d" ]] || ! grep -q 'scale\.h' "$name-1.d"; then
    fail "the dependency file was not restored on the cache hit"
  fi
  "$cc" -O2 -c "$source" -o "$name-plain.o" || fail "$cc -c $source failed"
  expect_same "$name-1.o" "$name-plain.o" "object through ccache vs without"
  pass "$(basename "$cc") $source, $mode mode: miss, then hit; objects identical; .d restored"
}

step "single files, direct mode (the default)"
hit_after_miss "$ADCC" unit.c direct
hit_after_miss "$ADCCXX" unit.cpp direct

step "single files, preprocessor mode (CCACHE_NODIRECT)"
CCACHE_NODIRECT=1 hit_after_miss "$ADCC" unit.c preprocessed
CCACHE_NODIRECT=1 hit_after_miss "$ADCCXX" unit.cpp preprocessed

step "compiler_type=clang forced (ccache guesses 'other' from the name adcc)"
CCACHE_COMPILERTYPE=clang hit_after_miss "$ADCC" unit.c direct

step "no stale hits"
ccache -C >/dev/null
ccache -z >/dev/null
ccache "$ADCC" -O2 -c unit.c -o flags-O2.o
ccache "$ADCC" -O0 -c unit.c -o flags-O0.o
expect_stats 2 0 0 "compiling with other flags"
ccache "$ADCC" -O2 -c unit.c -o flags-O2-again.o
expect_stats 2 1 0 "compiling with the first flags again"
pass "other flags are a miss, the first flags still hit"
sleep 1 # a new mtime for the header, so direct mode cannot take a shortcut
echo '#define SCALE 4.0' >scale.h
ccache "$ADCC" -O2 -c unit.c -o header-changed.o
expect_stats 3 1 0 "compiling after a header change"
cmp -s flags-O2.o header-changed.o &&
  fail "the object after the header change equals the old one"
pass "a changed header is a miss and gives a new object"

step "make CC=\"ccache $ADCC\" on examples/make-project"
cp -R "$ADCC_SOURCE_DIR/examples/make-project" make-project
rm -rf make-project/build
cd make-project
ccache -C >/dev/null
ccache -z >/dev/null
# 5 library objects are cached; the 2 programs are compiled and linked in
# one call, which ccache passes through ("called for link").
run_logged "$work/make-1.log" make -j4 CC="ccache $ADCC"
expect_stats 5 0 0 "first make"
[[ "$(ccache_stat called_for_link)" == 2 ]] ||
  fail "expected 2 compile-and-link calls, ccache counted $(ccache_stat called_for_link)"
(cd build && sha256sum ./*.o) >"$work/objects-1"
run_logged "$work/make-clean.log" make clean
ccache -z >/dev/null
run_logged "$work/make-2.log" make -j4 CC="ccache $ADCC"
expect_stats 0 5 0 "make after make clean"
(cd build && sha256sum ./*.o) >"$work/objects-2"
expect_same "$work/objects-1" "$work/objects-2" "objects of the cached rebuild"
for obj in build/*.o; do
  [[ -s "${obj%.o}.d" ]] || fail "dependency file of $obj missing after a cached build"
done
run_logged "$work/make-check.log" make check CC="ccache $ADCC"
cat "$work/make-check.log"
pass "second make: 5 direct hits, identical objects, dependency files, make check passes"

echo
echo "ccache: all checks passed"
