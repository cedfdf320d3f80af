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

# shellcheck disable=SC2317  # called from ../common/run-options.sh
usage() {
  cat <<EOF
Usage: $SCRIPT_NAME [options] [-- benchmark options]

Options:
  --cc "CMD"        compiler command (default: \$ADCC, else
                    $SOURCE_DIR/build/bin/adcc); may include flags, e.g.
                    "clang -fplugin=ClangEnzyme-22.so"
  --opt "FLAGS"     optimization flags (default: -O2)
  --native          shorthand for --opt "-O3 -march=native"
  --cflags "FLAGS"  extra compiler flags
  --quick           small sizes only, shorter samples (< 1 min in all)
  --json FILE       write one JSON record per kernel and size to FILE
  --only LIST       comma-separated kernels: dot sumsq rosenbrock logsumexp
                    matvec matmul heat1d stencil2d rk4
  --keep DIR        build in DIR and keep the binary (default: a temporary
                    directory, removed at exit)
  -h, --help        show this help
Options after -- go to the benchmark program (--min-time S, --samples N,
--verbose, --verify-only).
EOF
}

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

BUILD=("${CC[@]}" "${OPT_FLAGS[@]}" "${EXTRA_FLAGS[@]}" "${DEFS[@]}"
       "$BENCH_DIR/forward_bench.c" -o "$WORK/forward_bench" -lm)
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
"$WORK/forward_bench" "${BENCH_ARGS[@]}"
STATUS=$?
set -e
if [[ $STATUS -gt 128 ]]; then
  printf '%s: the benchmark was killed by signal %d (a crash in compiled code?)\n' \
    "$SCRIPT_NAME" $((STATUS - 128)) >&2
fi
exit "$STATUS"
