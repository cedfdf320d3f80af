#!/usr/bin/env bash
# csmith-fixed.sh: the test-suite run of scripts/csmith-diff.sh.
#
# Compiles a fixed set of csmith programs with adcc and with clang-22 at -O0
# and -O2 and requires identical checksums, no adcc crash and no adcc compile
# error. The seeds below were chosen by experiment with csmith 2.3.0 (Debian
# 12) and the default csmith options of csmith-diff.sh: each program builds
# with clang-22 and terminates in milliseconds. A discarded seed therefore
# means the generator changed, and fails the test (--fail-on-discard) rather
# than silently shrinking coverage.
#
# Environment (set by adcc_script_test in CMakeLists.txt): ADCC, CLANG,
# ADCC_SOURCE_DIR. Failing cases are kept in ./csmith-failures (the test's
# working directory is the build tree), each with a repro.sh.

set -euo pipefail

readonly FIXED_SEEDS="1 2 3 5 6 9 11 15 19 28 35 40"

for var in ADCC CLANG ADCC_SOURCE_DIR; do
  if [[ -z ${!var:-} ]]; then
    echo "csmith-fixed: error: $var is not set (run this test through ctest)" >&2
    exit 1
  fi
done

# A missing generator is a broken test environment, not a reason to skip.
# (csmith-diff.sh also fails, with exit status 2, if the headers are missing.)
if ! command -v csmith >/dev/null 2>&1; then
  echo "csmith-fixed: error: csmith is required for this test;" \
    "install it with: apt-get install csmith libcsmith-dev" >&2
  exit 1
fi

keep_dir=$PWD/csmith-failures
rm -rf "$keep_dir"

exec bash "$ADCC_SOURCE_DIR/scripts/csmith-diff.sh" \
  --adcc "$ADCC" --clang "$CLANG" \
  --seeds "$FIXED_SEEDS" --jobs 2 \
  --fail-on-discard --keep "$keep_dir" "$@"
