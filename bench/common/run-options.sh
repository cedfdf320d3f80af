# run-options.sh: what bench/forward/run.sh and bench/reverse/run.sh share,
# sourced by both after they set SCRIPT_NAME, SOURCE_DIR, WORK_PREFIX and
# QUICK_HELP (what --quick does, for the usage text): the usage, the option
# parser, the compiler command, the work directory, and build_and_run.
# Sets CC (array), OPT_FLAGS, EXTRA_FLAGS, BENCH_ARGS and WORK.
# shellcheck shell=bash

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
  --quick           $QUICK_HELP
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

die() {
  printf '%s: error: %s\n' "$SCRIPT_NAME" "$*" >&2
  exit 2
}

need_arg() {
  [[ $# -ge 2 ]] || die "option $1 needs an argument"
}

CC_CMD=${ADCC:-$SOURCE_DIR/build/bin/adcc}
OPT="-O2"
CFLAGS_EXTRA=""
KEEP=""
BENCH_ARGS=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --cc) need_arg "$@"; CC_CMD=$2; shift 2 ;;
    --opt) need_arg "$@"; OPT=$2; shift 2 ;;
    --native) OPT="-O3 -march=native"; shift ;;
    --cflags) need_arg "$@"; CFLAGS_EXTRA=$2; shift 2 ;;
    --quick) BENCH_ARGS+=(--quick); shift ;;
    --json)
      need_arg "$@"
      # The benchmark runs in the caller's directory, so a relative path
      # means the same to both.
      BENCH_ARGS+=(--json "$2"); shift 2 ;;
    --only) need_arg "$@"; BENCH_ARGS+=(--only "$2"); shift 2 ;;
    --keep) need_arg "$@"; KEEP=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; BENCH_ARGS+=("$@"); break ;;
    *) usage >&2; die "unknown option '$1'" ;;
  esac
done

# The compiler command may carry flags ("clang -fplugin=..."): split it.
read -r -a CC <<<"$CC_CMD"
[[ ${#CC[@]} -gt 0 ]] || die "empty compiler command"
command -v "${CC[0]}" >/dev/null 2>&1 || die "compiler not found: ${CC[0]}"
read -r -a OPT_FLAGS <<<"$OPT"
read -r -a EXTRA_FLAGS <<<"$CFLAGS_EXTRA"

if [[ -n $KEEP ]]; then
  mkdir -p "$KEEP"
  WORK=$(cd "$KEEP" && pwd)
else
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/$WORK_PREFIX.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
fi

# build_and_run PROGRAM [FLAGS...]: builds PROGRAM.c of the benchmark's
# directory (BENCH_DIR) with the compiler, the options and FLAGS, says with
# what and on which host, runs it with BENCH_ARGS, and exits with its status.
build_and_run() {
  local program=$1
  shift
  local build=("${CC[@]}" "${OPT_FLAGS[@]}" "${EXTRA_FLAGS[@]}" "$@"
               "$BENCH_DIR/$program.c" -o "$WORK/$program" -lm)
  echo "compiler: $("${CC[0]}" --version 2>/dev/null | head -n 1)"
  echo "build:    ${build[*]}"
  local start=$EPOCHREALTIME
  "${build[@]}" || die "building the benchmark failed"
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "built in %.1f s\n", b - a }'
  echo "host:     $(uname -m), $(nproc) cores," \
       "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
       "load average $(cut -d' ' -f1-3 /proc/loadavg)"
  echo

  local status
  set +e
  "$WORK/$program" "${BENCH_ARGS[@]}"
  status=$?
  set -e
  if [[ $status -gt 128 ]]; then
    printf '%s: the benchmark was killed by signal %d (a crash in compiled code?)\n' \
      "$SCRIPT_NAME" $((status - 128)) >&2
  fi
  exit "$status"
}
