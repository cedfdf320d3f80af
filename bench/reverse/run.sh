#!/usr/bin/env bash
# run.sh: build and run the reverse-mode benchmark (reverse_bench.c).
#
# Builds reverse_bench.c with adcc (or any Enzyme-compatible compiler given
# with --cc) into a temporary directory, runs it once, and prints its table.
# Every gradient is verified before it is timed; the exit status is that of
# the benchmark: 0, or 1 when a gradient was wrong (2 for usage or build
# errors). This is a benchmark, never a test: nothing here is run by ctest.
#
# Examples:
#   bench/reverse/run.sh --quick                  # < 1 min, small sizes
#   bench/reverse/run.sh --json rev.json          # full run plus JSON
#   bench/reverse/run.sh --native                 # -O3 -march=native
#   bench/reverse/run.sh --cc "clang -fplugin=/path/to/ClangEnzyme-22.so"

set -euo pipefail
export LC_ALL=C

readonly SCRIPT_NAME=${0##*/}
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly BENCH_DIR
readonly SOURCE_DIR=${BENCH_DIR%/bench/reverse}

# shellcheck disable=SC2034  # read by ../common/run-options.sh
QUICK_HELP="small sizes only, 5 samples (< 1 min in all)"
# shellcheck disable=SC2034  # read by ../common/run-options.sh
WORK_PREFIX=adcc-rev-bench
# shellcheck source=bench/common/run-options.sh
source "$BENCH_DIR/../common/run-options.sh"

build_and_run reverse_bench
