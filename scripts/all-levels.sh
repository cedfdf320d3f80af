#!/usr/bin/env bash
# Runs the extended suite: every end-to-end program and each of its
# variants at every level it is registered at (-O0 -O1 -O2 -O3, and -Os
# where registered), the tests ctest runs included, plus the longer seed
# lists of the fixed campaigns that CI runs a part of (docs/testing.md,
# "What CI runs and what it leaves out"). Builds first, as scripts/test.sh.
#
#   scripts/all-levels.sh [CTEST-ARGS...]
#     scripts/all-levels.sh                 the whole extended suite
#     scripts/all-levels.sh -R '^e2e\.'     the e2e matrix alone
#     scripts/all-levels.sh -R '-O3$'       one level
#
# Jobs: ADCC_JOBS (default 2). Ends with a table of passed, failed and
# skipped tests per level, then ctest's own summary; exits with ctest's
# status.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ADCC_BUILD_DIR:-$root/build}

bash "$root/scripts/build.sh"
log=$(mktemp "${TMPDIR:-/tmp}/all-levels.XXXXXX")
trap 'rm -f "$log"' EXIT
status=0
(cd "$build/tests/extended" &&
  ctest --output-on-failure -j "${ADCC_JOBS:-2}" "$@") 2>&1 | tee "$log" ||
  status=$?

# One row per level (the suffix -O0 ... -Os of the test's name; campaigns
# and other tests without one under "other").
awk '
  / Test +#[0-9]+: / {
    name = $0
    sub(/.*Test +#[0-9]+: /, "", name)
    sub(/ .*/, "", name)
    level = "other"
    if (match(name, /-O[0-3s]$/)) level = substr(name, RSTART + 1)
    if ($0 ~ /\*\*\*Skipped|Not Run/) skipped[level]++
    else if ($0 ~ / Passed /) passed[level]++
    else failed[level]++
    seen[level] = 1
  }
  END {
    printf "\n%-6s %7s %7s %7s\n", "level", "passed", "failed", "skipped"
    n = split("O0 O1 O2 O3 Os other", order, " ")
    for (i = 1; i <= n; i++) {
      l = order[i]
      if (!(l in seen)) continue
      printf "%-6s %7d %7d %7d\n", (l == "other" ? l : "-" l),
        passed[l], failed[l], skipped[l]
      tp += passed[l]; tf += failed[l]; ts += skipped[l]
    }
    printf "%-6s %7d %7d %7d\n", "all", tp, tf, ts
  }' "$log"
grep -E '^[0-9]+% tests passed' "$log" || true
exit "$status"
