#!/usr/bin/env bash
# run.sh: build and run the checkpointing benchmark (checkpoint_bench.c):
# gradients of long time loops taped whole, with the fixed-interval
# schedule and with revolve (docs/checkpointing.md). A benchmark, never a
# test: nothing here is run by ctest. Exit status: the benchmark's (1 when a
# checkpointed gradient differs from the taped one), 2 for build errors.
#
#   bench/checkpoint/run.sh            # 100,000 rk4 steps, 10,000 heat steps
#   bench/checkpoint/run.sh --quick    # a tenth of those
set -euo pipefail
export LC_ALL=C
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE_DIR=${BENCH_DIR%/bench/checkpoint}
CC_CMD=${ADCC:-$SOURCE_DIR/build/bin/adcc}
WORK=$(mktemp -d -t adcc-checkpoint-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# (kernels.h holds the other benchmarks' kernels too: unused here.)
BUILD=("$CC_CMD" -O2 -Wno-unused-function "$BENCH_DIR/checkpoint_bench.c"
       -o "$WORK/checkpoint_bench" -lm)
echo "build:    ${BUILD[*]}"
"${BUILD[@]}" || { echo "building the benchmark failed" >&2; exit 2; }
echo "host:     $(uname -m), $(nproc) cores," \
     "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$WORK/checkpoint_bench" "$@"
