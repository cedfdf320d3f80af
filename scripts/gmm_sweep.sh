#!/usr/bin/env bash
# scripts/gmm_sweep.sh: the ADBench GMM gradient over d, adcc against a
# second compiler (Enzyme's clang plugin), by CPU time and by instructions.
#
#   scripts/gmm_sweep.sh --compare "clang-19 -fplugin=/path/ClangEnzyme-19.so"
#   scripts/gmm_sweep.sh --compare CMD --sizes "1k/gmm_d64_K10" --callgrind
#
# Builds bench/adbench/gmm_sweep.c (gmm.c's objective and gradient, one call
# each per repetition, timed by the thread's CPU time) with build/bin/adcc
# and with CMD, runs the two builds alternately (--rounds rounds of --reps
# calls each) on each size and prints a markdown table: the fastest call of
# each build, the ratio adcc / CMD, and with --callgrind the instructions of
# one gradient call of each (callgrind, --toggle-collect=gmm_ad_gradient).
# Both builds must print the same objective and gradient sum (relative
# 1e-9), else the script exits 1. With --keep-memory the runs set glibc's
# malloc tunables so that freed memory stays in the process (no fresh pages
# per call for either build). A measurement run by hand, never a test
# (docs/performance.md, "Side by side with Enzyme").
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ADCC=${ADCC:-$ROOT/build/bin/adcc}
DATA=${ADCC_BENCH_DATA:-$(dirname "$ROOT")/shared/data/adbench}
COMPARE=""
SIZES="1k/gmm_d2_K10 1k/gmm_d10_K10 1k/gmm_d20_K10 1k/gmm_d32_K10 1k/gmm_d64_K10"
ROUNDS=3
REPS=10
OPT="-O2"
CALLGRIND=0
KEEP_MEMORY=0

usage() {
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  echo "options: --compare CMD (required), --sizes LIST (default: $SIZES),"
  echo "  --rounds N ($ROUNDS), --reps N ($REPS), --opt FLAGS ($OPT),"
  echo "  --callgrind, --keep-memory, --data DIR ($DATA)"
}

while [ $# -gt 0 ]; do
  case "$1" in
  --compare) COMPARE=$2; shift 2 ;;
  --sizes) SIZES=$2; shift 2 ;;
  --rounds) ROUNDS=$2; shift 2 ;;
  --reps) REPS=$2; shift 2 ;;
  --opt) OPT=$2; shift 2 ;;
  --data) DATA=$2; shift 2 ;;
  --callgrind) CALLGRIND=1; shift ;;
  --keep-memory) KEEP_MEMORY=1; shift ;;
  -h | --help) usage; exit 0 ;;
  *) echo "gmm_sweep.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done
if [ -z "$COMPARE" ]; then
  echo "gmm_sweep.sh: --compare CMD is required" >&2
  exit 2
fi
if [ "$CALLGRIND" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "gmm_sweep.sh: --callgrind needs valgrind" >&2
  exit 2
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
SRC=$ROOT/bench/adbench/gmm_sweep.c
# shellcheck disable=SC2086
"$ADCC" $OPT "$SRC" -lm -o "$WORK/adcc"
# shellcheck disable=SC2086
$COMPARE $OPT "$SRC" -lm -o "$WORK/other" 2>"$WORK/other.log" || {
  cat "$WORK/other.log" >&2
  exit 1
}
if [ "$KEEP_MEMORY" = 1 ]; then
  export GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4294967295:glibc.malloc.top_pad=268435456
fi

# field NAME LINE: the value after NAME in a gmm_sweep output line.
field() { awk -v k="$1" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}' <<<"$2"; }
# instructions BIN FILE: Ir of one gradient call.
instructions() {
  valgrind --tool=callgrind --toggle-collect='*gmm_ad_gradient' \
    --callgrind-out-file="$WORK/cg.out" "$1" "$2" 1 >/dev/null 2>&1
  awk '/^summary:/ {print $2}' "$WORK/cg.out"
}

echo "adcc: $("$ADCC" --version | head -1)"
echo "other: $COMPARE ($($COMPARE --version 2>/dev/null | head -1))"
echo "flags: $OPT; CPU time, fastest of $ROUNDS x $REPS calls;" \
  "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$KEEP_MEMORY" = 1 ] && echo "GLIBC_TUNABLES=$GLIBC_TUNABLES"
echo
head="| size | primal [ms] | adcc gradient [ms] | other gradient [ms] | ratio |"
rule="|---|--:|--:|--:|--:|"
if [ "$CALLGRIND" = 1 ]; then
  head="$head adcc instructions | other instructions | ratio |"
  rule="$rule--:|--:|--:|"
fi
echo "$head"
echo "$rule"
status=0
for size in $SIZES; do
  file=$DATA/gmm/$size.txt
  [ -f "$file" ] || { echo "gmm_sweep.sh: no $file" >&2; exit 2; }
  best_a="" best_o="" best_p=""
  for _ in $(seq "$ROUNDS"); do
    for who in adcc other; do
      line=$("$WORK/$who" "$file" "$REPS")
      g=$(field gradient_ms "$line")
      p=$(field primal_ms "$line")
      if [ "$who" = adcc ]; then
        sum_a=$(field gradient_sum "$line") obj_a=$(field objective "$line")
        best_a=$(awk -v a="$g" -v b="${best_a:-1e30}" 'BEGIN{print (a < b) ? a : b}')
        best_p=$(awk -v a="$p" -v b="${best_p:-1e30}" 'BEGIN{print (a < b) ? a : b}')
      else
        sum_o=$(field gradient_sum "$line") obj_o=$(field objective "$line")
        best_o=$(awk -v a="$g" -v b="${best_o:-1e30}" 'BEGIN{print (a < b) ? a : b}')
      fi
    done
  done
  if ! awk -v a="$sum_a" -v b="$sum_o" -v c="$obj_a" -v d="$obj_o" 'BEGIN{
      e = a - b; if (e < 0) e = -e; s = (a < 0 ? -a : a) + 1e-300
      f = c - d; if (f < 0) f = -f; t = (c < 0 ? -c : c) + 1e-300
      exit !(e <= 1e-9 * s && f <= 1e-9 * t)}'; then
    echo "gmm_sweep.sh: $size: the builds disagree (objective $obj_a / $obj_o, gradient sum $sum_a / $sum_o)" >&2
    status=1
  fi
  row=$(awk -v s="$size" -v p="$best_p" -v a="$best_a" -v o="$best_o" \
    'BEGIN{printf "| %s | %.4g | %.4g | %.4g | %.2f |", s, p, a, o, a / o}')
  if [ "$CALLGRIND" = 1 ]; then
    ia=$(instructions "$WORK/adcc" "$file")
    io=$(instructions "$WORK/other" "$file")
    row="$row$(awk -v a="$ia" -v o="$io" \
      'BEGIN{printf " %.4g M | %.4g M | %.2f |", a / 1e6, o / 1e6, a / o}')"
  fi
  echo "$row"
done
exit $status
