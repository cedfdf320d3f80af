# run-options.sh: what bench/forward/run.sh and bench/reverse/run.sh share,
# sourced by both after they define usage() and set WORK_PREFIX: the option
# parser, the compiler command and the work directory. Sets CC (array),
# OPT_FLAGS, EXTRA_FLAGS, BENCH_ARGS and WORK.
# shellcheck shell=bash

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
