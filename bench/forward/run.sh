#!/usr/bin/env bash
# run.sh: build and run the forward-mode benchmark (forward_bench.c).
#
# Builds forward_bench.c with adcc (or any Enzyme-compatible compiler given
# with --cc) into a temporary directory, runs it once, and prints its table.
# Every derivative is verified before it is timed; the exit status is that
# of the benchmark: 0, or 1 when a derivative was wrong (2 for usage or build
# errors). This is a benchmark, never a test: nothing here is run by ctest.
#
# Examples:
#   bench/forward/run.sh --quick                  # < 1 min, small sizes
#   bench/forward/run.sh --json fwd.json          # full run plus JSON
#   bench/forward/run.sh --native                 # -O3 -march=native
#   bench/forward/run.sh --cc "clang -fplugin=/path/to/ClangEnzyme-22.so"

set -euo pipefail
export LC_ALL=C

readonly SCRIPT_NAME=${0##*/}
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly BENCH_DIR
readonly SOURCE_DIR=${BENCH_DIR%/bench/forward}

# shellcheck disable=SC2034  # read by ../common/run-options.sh
QUICK_HELP="small sizes only, shorter samples (< 1 min in all)"
# shellcheck disable=SC2034  # read by ../common/run-options.sh
WORK_PREFIX=adcc-fwd-bench
# shellcheck source=bench/common/run-options.sh
source "$BENCH_DIR/../common/run-options.sh"

# Batched derivatives of scalar functions are requested with a struct
# return (vec4/vec8), which the compiler passes through a hidden sret
# pointer. Probe whether the compiler lowers such a request; if not, build
# the benchmark with FWD_BENCH_NO_STRUCT_RETURN (void wrapper with an output
# argument) and say so.
cat >"$WORK/probe.c" <<'EOF'
extern int enzyme_width;
typedef struct { double d[4]; } vec4;
vec4 __enzyme_fwddiff_w4(void *, ...);
static double sq(double x) { return x * x; }
int main(void) {
  vec4 r = __enzyme_fwddiff_w4((void *)sq, enzyme_width, 4, 3.0, 1.0, 2.0,
                               3.0, 4.0);
  return !(r.d[0] == 6 && r.d[1] == 12 && r.d[2] == 18 && r.d[3] == 24);
}
EOF
DEFS=()
if ! "${CC[@]}" "${OPT_FLAGS[@]}" "$WORK/probe.c" -o "$WORK/probe" \
      >"$WORK/probe.log" 2>&1 || ! "$WORK/probe" >/dev/null 2>&1; then
  DEFS=(-DFWD_BENCH_NO_STRUCT_RETURN)
  echo "note: this compiler cannot lower a batched request that returns a" \
       "struct of 4 doubles (sret); the scalar kernels' width-4/8" \
       "derivatives go through a void wrapper with an output argument" \
       "instead (FWD_BENCH_NO_STRUCT_RETURN). Probe output:"
  sed 's/^/  | /' "$WORK/probe.log" | head -n 5
fi

build_and_run forward_bench "${DEFS[@]}"
