#!/usr/bin/env bash
# compile-speed.sh: compile-time benchmark, adcc versus clang-22.
#
# Compiles the benchmark sources in this directory with `-c` N times each by
# adcc and by clang-22 at every requested optimization level and reports the
# median wall time of each compiler and the ratio adcc/clang, as a table and
# optionally as JSON. Cases:
#
#   c     numeric.c                  plain numerical C (adcc's overhead on
#                                    code that asks for no derivatives)
#   c-ad  numeric.c -DNUMERIC_AD     the same file plus Enzyme-style
#                                    derivative requests (adcc's AD work is
#                                    included; clang just emits the calls)
#   cxx   numeric.cpp                template-heavy C++ (adcc++ vs clang++)
#
# Runs are interleaved (adcc, clang, clang, adcc, ...: the order alternates
# every round) so that drift in machine load or frequency affects both
# compilers alike; one untimed warm-up compile per compiler comes first.
# Timing uses bash's $EPOCHREALTIME (microseconds, no extra process per
# sample). hyperfine is deliberately not used: it times each command's runs
# back to back and cannot interleave two commands.
#
# This is a benchmark, not a test: it reports and never asserts. It prints a
# note where adcc is more than 10% slower than clang. Exit status is non-zero
# only for usage errors or when no case could be measured at all.

set -euo pipefail
export LC_ALL=C  # '.' as decimal separator in $EPOCHREALTIME and printf

readonly SCRIPT_NAME=${0##*/}
BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly BENCH_DIR
readonly SOURCE_DIR=${BENCH_DIR%/bench/compile}
readonly NOTE_RATIO=1.10

usage() {
  cat <<EOF
Usage: $SCRIPT_NAME [options]

Options:
  --adcc PATH       adcc (default: \$ADCC, else $SOURCE_DIR/build/bin/adcc)
  --adccxx PATH     adcc++ (default: \$ADCCXX, else adcc++ next to adcc)
  --clang PATH      clang-22 (default: \$CLANG, else /usr/lib/llvm-22/bin/clang)
  --clangxx PATH    clang++-22 (default: clang++ next to clang)
  -n, --runs N      timed compiles per compiler, case and level (default 10)
  --levels "L ..."  optimization levels (default "-O0 -O2")
  --cases "C ..."   cases among: c c-ad cxx (default "c c-ad cxx")
  --flags "..."     extra flags for both compilers (e.g. "-g")
  --json FILE       also write the results as JSON to FILE
  -h, --help        show this help
EOF
}

die() {
  printf '%s: error: %s\n' "$SCRIPT_NAME" "$*" >&2
  exit 2
}

need_arg() {
  [[ $# -ge 2 ]] || die "option $1 needs an argument"
}

adcc=${ADCC:-$SOURCE_DIR/build/bin/adcc}
adccxx=${ADCCXX:-}
clang=${CLANG:-/usr/lib/llvm-22/bin/clang}
clangxx=""
runs=10
levels="-O0 -O2"
cases="c c-ad cxx"
flags=""
json=""

while [[ $# -gt 0 ]]; do
  case $1 in
    --adcc) need_arg "$@"; adcc=$2; shift 2 ;;
    --adccxx) need_arg "$@"; adccxx=$2; shift 2 ;;
    --clang) need_arg "$@"; clang=$2; shift 2 ;;
    --clangxx) need_arg "$@"; clangxx=$2; shift 2 ;;
    -n|--runs) need_arg "$@"; runs=$2; shift 2 ;;
    --levels) need_arg "$@"; levels=$2; shift 2 ;;
    --cases) need_arg "$@"; cases=$2; shift 2 ;;
    --flags) need_arg "$@"; flags=$2; shift 2 ;;
    --json) need_arg "$@"; json=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
done

[[ $runs =~ ^[0-9]+$ && $runs -ge 1 ]] || die "--runs must be a positive integer"
read -r -a level_list <<<"$levels"
read -r -a case_list <<<"$cases"
read -r -a flag_list <<<"$flags"
[[ ${#level_list[@]} -gt 0 ]] || die "--levels is empty"
[[ ${#case_list[@]} -gt 0 ]] || die "--cases is empty"
for c in "${case_list[@]}"; do
  case $c in c|c-ad|cxx) ;; *) die "unknown case '$c' (c, c-ad, cxx)" ;; esac
done

# Default C++ drivers sit next to the C ones (adcc++ is a link to adcc).
[[ -n $adccxx ]] || adccxx=$(dirname "$adcc")/adcc++
[[ -n $clangxx ]] || clangxx=$(dirname "$clang")/clang++
for tool in "$adcc" "$clang"; do
  [[ -x $tool ]] || die "compiler not found or not executable: $tool"
done
if [[ -n $json ]]; then
  : >"$json" || die "cannot write $json"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/compile-speed.XXXXXX")
# shellcheck disable=SC2317  # invoked by the EXIT trap
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

# now_us: wall clock in microseconds.
now_us() { printf '%s\n' "${EPOCHREALTIME/./}"; }

# compile_once COMPILER ARGS...: compile into $work/out.o; stderr to
# $work/compile.log. Returns the compiler's exit status.
compile_once() {
  "$@" -c -o "$work/out.o" >"$work/compile.log" 2>&1
}

# time_once VAR COMPILER ARGS...: time one compile; append microseconds to
# the array named VAR.
time_once() {
  local -n samples_ref=$1
  shift
  local t0 t1
  t0=$(now_us)
  compile_once "$@" || die "compile failed during timing: $* ($(head -n1 "$work/compile.log"))"
  t1=$(now_us)
  samples_ref+=($((t1 - t0)))
}

# median_us US...: median of integer samples (mean of the two middle ones
# for an even count), printed in microseconds.
median_us() {
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 }
    END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# json_str STRING: STRING as a JSON string literal.
json_str() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\t'/ }
  s=${s//$'\n'/ }
  printf '"%s"' "$s"
}

# trim STRING: STRING without leading and trailing blanks.
trim() {
  local s=$1
  s=${s#"${s%%[![:space:]]*}"}
  printf '%s' "${s%"${s##*[![:space:]]}"}"
}

# us_list_json US...: JSON array of seconds.
us_list_json() {
  local out="" us
  for us in "$@"; do
    out+=$(awk -v u="$us" 'BEGIN { printf "%.6f", u / 1e6 }'),
  done
  printf '[%s]' "${out%,}"
}

first_line_of_version() { "$1" --version 2>/dev/null | head -n1; }

# ---------------------------------------------------------------------------
# Measurements
# ---------------------------------------------------------------------------
printf 'compile-speed: %d interleaved runs per compiler, case and level\n' "$runs"
printf '  adcc:  %s  [%s]\n' "$adcc" "$(first_line_of_version "$adcc")"
printf '  clang: %s  [%s]\n' "$clang" "$(first_line_of_version "$clang")"
printf '  host:  %s, %s cores\n\n' "$(uname -srm)" "$(nproc)"

rows=()          # table rows, already formatted
json_rows=()     # JSON objects, one per measured case/level
notes=()
measured=0

for c in "${case_list[@]}"; do
  case $c in
    c) src=numeric.c; extra=(); a_cc=$adcc; c_cc=$clang ;;
    c-ad) src=numeric.c; extra=(-DNUMERIC_AD); a_cc=$adcc; c_cc=$clang ;;
    cxx) src=numeric.cpp; extra=(); a_cc=$adccxx; c_cc=$clangxx ;;
  esac
  for lvl in "${level_list[@]}"; do
    args=("$lvl" "${flag_list[@]}" "${extra[@]}" "$BENCH_DIR/$src")
    label="$c ($src) $lvl"

    # Warm-up, which also checks that both compilers accept the input.
    skip=""
    for cc in "$a_cc" "$c_cc"; do
      if [[ ! -x $cc ]]; then
        skip="$cc not found"
        break
      fi
      if ! compile_once "$cc" "${args[@]}"; then
        skip="$(basename "$cc") failed: $(head -n1 "$work/compile.log")"
        break
      fi
    done
    if [[ -n $skip ]]; then
      printf '%-24s skipped (%s)\n' "$label" "$skip"
      rows+=("$(printf '%-6s %-4s %12s %12s %8s' "$c" "$lvl" - - n/a)")
      notes+=("$c $lvl: skipped ($skip)")
      json_rows+=("$(printf '{"case": %s, "file": %s, "level": %s, "skipped": %s}' \
        "$(json_str "$c")" "$(json_str "$src")" "$(json_str "$lvl")" \
        "$(json_str "$skip")")")
      continue
    fi

    a_us=() c_us=()
    for ((i = 0; i < runs; ++i)); do
      if ((i % 2 == 0)); then
        time_once a_us "$a_cc" "${args[@]}"
        time_once c_us "$c_cc" "${args[@]}"
      else
        time_once c_us "$c_cc" "${args[@]}"
        time_once a_us "$a_cc" "${args[@]}"
      fi
    done
    a_med=$(median_us "${a_us[@]}")
    c_med=$(median_us "${c_us[@]}")
    ratio=$(awk -v a="$a_med" -v b="$c_med" 'BEGIN { printf "%.3f", a / b }')
    a_ms=$(awk -v u="$a_med" 'BEGIN { printf "%.1f", u / 1000 }')
    c_ms=$(awk -v u="$c_med" 'BEGIN { printf "%.1f", u / 1000 }')
    printf '%-24s adcc %8s ms   clang %8s ms   ratio %s\n' \
      "$label" "$a_ms" "$c_ms" "$ratio"
    rows+=("$(printf '%-6s %-4s %12s %12s %8s' "$c" "$lvl" "$a_ms" "$c_ms" "$ratio")")
    if awk -v r="$ratio" -v t="$NOTE_RATIO" 'BEGIN { exit !(r > t) }'; then
      notes+=("$c $lvl: adcc/clang = $ratio exceeds $NOTE_RATIO")
    fi
    measured=$((measured + 1))

    json_rows+=("$(printf '{"case": %s, "file": %s, "level": %s, "flags": %s, "runs": %d, "adcc_median_s": %.6f, "clang_median_s": %.6f, "ratio": %s, "adcc_times_s": %s, "clang_times_s": %s}' \
      "$(json_str "$c")" "$(json_str "$src")" "$(json_str "$lvl")" \
      "$(json_str "$(trim "${flag_list[*]} ${extra[*]}")")" "$runs" \
      "$(awk -v u="$a_med" 'BEGIN { print u / 1e6 }')" \
      "$(awk -v u="$c_med" 'BEGIN { print u / 1e6 }')" "$ratio" \
      "$(us_list_json "${a_us[@]}")" "$(us_list_json "${c_us[@]}")")")
  done
done

# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------
printf '\nMedian wall time of -c compiles (%d runs each):\n\n' "$runs"
printf '%-6s %-4s %12s %12s %8s\n' case lvl "adcc [ms]" "clang [ms]" ratio
printf '%-6s %-4s %12s %12s %8s\n' ------ ---- ---------- ---------- -----
printf '%s\n' "${rows[@]}"
if [[ ${#notes[@]} -gt 0 ]]; then
  printf '\n'
  printf 'note: %s\n' "${notes[@]}"
fi

if [[ -n $json ]]; then
  {
    printf '{\n  "benchmark": "compile-speed",\n'
    printf '  "host": %s,\n' "$(json_str "$(uname -srm), $(nproc) cores")"
    printf '  "adcc": %s,\n' "$(json_str "$adcc")"
    printf '  "adcc_version": %s,\n' "$(json_str "$(first_line_of_version "$adcc")")"
    printf '  "clang": %s,\n' "$(json_str "$clang")"
    printf '  "clang_version": %s,\n' "$(json_str "$(first_line_of_version "$clang")")"
    printf '  "runs": %d,\n  "results": [' "$runs"
    sep=""
    for r in "${json_rows[@]}"; do
      printf '%s\n    %s' "$sep" "$r"
      sep=,
    done
    printf '\n  ]\n}\n'
  } >"$json"
  printf '\nJSON written to %s\n' "$json"
fi

[[ $measured -gt 0 ]] || { echo "$SCRIPT_NAME: nothing could be measured" >&2; exit 1; }
exit 0
