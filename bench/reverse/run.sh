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

# shellcheck disable=SC2317  # called from ../common/run-options.sh
usage() {
  cat <<USAGE
Usage: $SCRIPT_NAME [options] [-- benchmark options]

Options:
  --cc "CMD"        compiler command (default: \$ADCC, else
                    $SOURCE_DIR/build/bin/adcc); may include flags, e.g.
                    "clang -fplugin=ClangEnzyme-22.so"
  --opt "FLAGS"     optimization flags (default: -O2)
  --native          shorthand for --opt "-O3 -march=native"
  --cflags "FLAGS"  extra compiler flags
  --quick           small sizes only, 5 samples (< 1 min in all)
  --json FILE       write one JSON record per kernel and size to FILE
  --only LIST       comma-separated kernels: dot sumsq rosenbrock logsumexp
                    matvec matmul heat1d stencil2d rk4
  --keep DIR        build in DIR and keep the binary (default: a temporary
                    directory, removed at exit)
  -h, --help        show this help
Options after -- go to the benchmark program (--min-time S, --samples N,
--verbose, --verify-only).
USAGE
}

# shellcheck disable=SC2034  # read by ../common/run-options.sh
WORK_PREFIX=adcc-rev-bench
# shellcheck source=bench/common/run-options.sh
source "$BENCH_DIR/../common/run-options.sh"

BUILD=("${CC[@]}" "${OPT_FLAGS[@]}" "${EXTRA_FLAGS[@]}"
       "$BENCH_DIR/reverse_bench.c" -o "$WORK/reverse_bench" -lm)
echo "compiler: $("${CC[0]}" --version 2>/dev/null | head -n 1)"
echo "build:    ${BUILD[*]}"
START=$EPOCHREALTIME
"${BUILD[@]}" || die "building the benchmark failed"
awk -v a="$START" -v b="$EPOCHREALTIME" 'BEGIN { printf "built in %.1f s\n", b - a }'
echo "host:     $(uname -m), $(nproc) cores," \
     "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo

set +e
"$WORK/reverse_bench" "${BENCH_ARGS[@]}"
STATUS=$?
set -e
if [[ $STATUS -gt 128 ]]; then
  printf '%s: the benchmark was killed by signal %d (a crash in compiled code?)\n' \
    "$SCRIPT_NAME" $((STATUS - 128)) >&2
fi
exit "$STATUS"
