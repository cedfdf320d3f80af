#!/usr/bin/env bash
# csmith-diff.sh: differential testing of adcc against clang-22 with csmith.
#
# For every seed this script
#   1. generates a random C program with `csmith --seed S` (options below keep
#      programs small and usually fast-terminating);
#   2. builds it with clang-22 at -O0 and runs it under a short timeout; if the
#      reference binary does not finish (or clang cannot build it) the seed is
#      "discarded": counted separately, never as passed;
#   3. for each optimization level (-O0 and -O2 by default) builds it with adcc
#      and with clang-22 using the same flags, runs both binaries and compares
#      their output (the checksum line csmith prints) and exit status.
#
# A seed fails when adcc crashes, exits non-zero or times out while compiling
# a program that clang compiles, when adcc's stderr contains a crash signature
# ("PLEASE submit a bug report", "Stack dump", "Assertion"), when the
# adcc-built binary crashes or times out, or when the outputs differ.
#
# Exit status: 0 if no seed failed, 1 if any seed failed (or --fail-on-discard
# and a seed was discarded), 2 on a usage or setup error (e.g. csmith missing).
#
# The fixed seeds used by the test suite (tests/integration/csmith-fixed.sh)
# depend on CSMITH_OPTS below and on the csmith version (Debian's 2.3.0):
# changing either changes the programs those seeds produce.

set -euo pipefail

readonly SCRIPT_NAME=${0##*/}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly SCRIPT_DIR
readonly SOURCE_DIR=${SCRIPT_DIR%/scripts}

# csmith options: few, shallow functions; small arrays; no packed structs
# (misaligned accesses only add noise); float/double variables enabled, since
# floating-point code is what adcc's differentiation passes care about.
# Programs are typically 100-1300 lines and run in milliseconds; about one
# seed in eight loops for a long time and is discarded by the timeout.
readonly DEFAULT_CSMITH_OPTS="--max-funcs 6 --max-block-depth 3 \
--max-expr-complexity 6 --max-array-dim 2 --max-array-len-per-dim 6 \
--no-packed-struct --float"

usage() {
  cat <<EOF
Usage: $SCRIPT_NAME [options]

Differential testing: csmith programs compiled by adcc and by clang-22 must
print the same checksum at every optimization level.

Options:
  --adcc PATH          adcc compiler (default: \$ADCC, else
                       $SOURCE_DIR/build/bin/adcc)
  --clang PATH         reference compiler (default: \$CLANG, else
                       /usr/lib/llvm-22/bin/clang)
  --csmith PATH        csmith generator (default: csmith on PATH)
  --seeds "S1 S2 ..."  explicit list of seeds
  --count N            number of consecutive seeds (default 500)
  --start S            first seed for --count (default 1)
  --jobs J             seeds processed in parallel (default 2, at most nproc)
  --levels "L ..."     optimization levels (default "-O0 -O2")
  --timeout SEC        run-time limit of the clang-built reference binary;
                       slower programs are discarded (default 3). The
                       adcc-built binary gets twice as long.
  --compile-timeout S  limit per compilation (default 120)
  --csmith-opts "..."  csmith options (default: $DEFAULT_CSMITH_OPTS)
  --extra-flags "..."  extra flags passed to both compilers
  --keep DIR           keep failing cases (program, logs, repro.sh) in DIR
  --fail-on-discard    also exit non-zero if any seed was discarded
  -q, --quiet          print only failures and the summary
  -h, --help           show this help
EOF
}

die() {
  printf '%s: error: %s\n' "$SCRIPT_NAME" "$*" >&2
  exit 2
}

# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------
adcc=${ADCC:-$SOURCE_DIR/build/bin/adcc}
clang=${CLANG:-/usr/lib/llvm-22/bin/clang}
csmith=csmith
seeds=""
count=500
start=1
jobs=2
levels="-O0 -O2"
run_timeout=3
compile_timeout=120
csmith_opts=$DEFAULT_CSMITH_OPTS
extra_flags=""
keep_dir=""
fail_on_discard=0
quiet=0

need_arg() {
  [[ $# -ge 2 ]] || die "option $1 needs an argument"
}

while [[ $# -gt 0 ]]; do
  case $1 in
    --adcc) need_arg "$@"; adcc=$2; shift 2 ;;
    --clang) need_arg "$@"; clang=$2; shift 2 ;;
    --csmith) need_arg "$@"; csmith=$2; shift 2 ;;
    --seeds) need_arg "$@"; seeds=$2; shift 2 ;;
    --count) need_arg "$@"; count=$2; shift 2 ;;
    --start) need_arg "$@"; start=$2; shift 2 ;;
    --jobs|-j) need_arg "$@"; jobs=$2; shift 2 ;;
    --levels) need_arg "$@"; levels=$2; shift 2 ;;
    --timeout) need_arg "$@"; run_timeout=$2; shift 2 ;;
    --compile-timeout) need_arg "$@"; compile_timeout=$2; shift 2 ;;
    --csmith-opts) need_arg "$@"; csmith_opts=$2; shift 2 ;;
    --extra-flags) need_arg "$@"; extra_flags=$2; shift 2 ;;
    --keep) need_arg "$@"; keep_dir=$2; shift 2 ;;
    --fail-on-discard) fail_on_discard=1; shift ;;
    -q|--quiet) quiet=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
done

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }

is_uint "$count" || die "--count must be a non-negative integer"
is_uint "$start" || die "--start must be a non-negative integer"
is_posint() { [[ $1 =~ ^[0-9]+$ && $1 -ge 1 ]]; }
is_posint "$jobs" || die "--jobs must be a positive integer"
is_posint "$run_timeout" || die "--timeout must be a positive integer"
is_posint "$compile_timeout" \
  || die "--compile-timeout must be a positive integer"

if [[ -z $seeds ]]; then
  seeds=$(seq "$start" $((start + count - 1)) | tr '\n' ' ')
fi
read -r -a seed_list <<<"$seeds"
for s in "${seed_list[@]}"; do
  is_uint "$s" || die "seed '$s' is not a non-negative integer"
done
[[ ${#seed_list[@]} -gt 0 ]] || die "no seeds to test"
read -r -a level_list <<<"$levels"
[[ ${#level_list[@]} -gt 0 ]] || die "--levels is empty"
read -r -a csmith_args <<<"$csmith_opts"
read -r -a extra_args <<<"$extra_flags"

# Never run more jobs than there are cores: compile times then stay sane and
# the run-time limits do not fire because of oversubscription.
ncpu=$(nproc 2>/dev/null || echo 1)
[[ $jobs -le $ncpu ]] || jobs=$ncpu

# ---------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------
if ! csmith_path=$(command -v "$csmith"); then
  die "csmith not found; install it with: apt-get install csmith libcsmith-dev"
fi
csmith=$csmith_path

# csmith's runtime headers (csmith.h, safe_math.h, ...).
csmith_inc=""
for d in /usr/include/csmith /usr/local/include/csmith \
         "$(dirname "$csmith")/../include/csmith"; do
  if [[ -f $d/csmith.h ]]; then
    csmith_inc=$(cd "$d" && pwd)
    break
  fi
done
[[ -n $csmith_inc ]] \
  || die "csmith.h not found; install it with: apt-get install libcsmith-dev"

resolve_tool() {  # resolve_tool NAME PATH -> absolute path of the executable
  local p
  p=$(command -v "$2") || die "$1 not found: $2"
  [[ -x $p ]] || die "$1 is not executable: $p"
  case $p in /*) ;; *) p=$PWD/$p ;; esac
  printf '%s\n' "$p"
}
adcc=$(resolve_tool adcc "$adcc")
clang=$(resolve_tool clang "$clang")
command -v timeout >/dev/null || die "timeout (coreutils) not found"

# shellcheck source=scripts/lib/campaign.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/campaign.sh"
campaign_keep_dir

# Work area, removed on exit; background workers are stopped on interrupt.
campaign_work_area csmith-diff

# Flags given to both compilers before the optimization level. -w: csmith
# code is warning-heavy. Clang 16+ makes incompatible pointer conversions an
# error, and csmith's float checksums pass `float *` to a `char *` parameter.
base_flags=(-w -Wno-error=incompatible-pointer-types "-I$csmith_inc")

# Patterns that mean the compiler itself crashed or asserted.
readonly CRASH_RE='PLEASE submit a bug report|Stack dump|Assertion'

# ---------------------------------------------------------------------------
# One seed
# ---------------------------------------------------------------------------

# record SEED STATUS MESSAGE: store the outcome and print one line (printed
# with a single write so that parallel workers do not interleave).
record() {
  printf '%s %s\n' "$2" "$3" >"$work/status/$1"
  if [[ $quiet -eq 0 || $2 == FAIL ]]; then
    printf 'seed %s: %s%s\n' "$1" "$2" "${3:+ ($3)}"
  fi
}

# first_line FILE: first line of FILE, for messages.
first_line() {
  local l=""
  [[ -s $1 ]] && IFS= read -r l <"$1"
  printf '%s' "$l"
}

# keep_case SEED DIR REASON: copy a failing case to the --keep directory,
# with a script that regenerates the program and reruns both compilers.
keep_case() {
  local seed=$1 dir=$2 reason=$3 dest
  [[ -n $keep_dir ]] || return 0
  dest=$keep_dir/seed-$seed
  rm -rf "$dest"
  mkdir -p "$dest"
  cp "$dir"/*.c "$dir"/*.log "$dir"/*.out "$dest"/ 2>/dev/null || true
  {
    printf '#!/usr/bin/env bash\n'
    printf '# csmith seed %s: %s\n' "$seed" "$reason"
    printf '# Regenerate the program (already saved as prog.c):\n#   '
    printf '%q ' "$csmith" --seed "$seed" "${csmith_args[@]}" -o prog.c
    # shellcheck disable=SC2016  # $0 is expanded when repro.sh runs
    printf '\nset -u\ncd "$(dirname "$0")"\n'
    local lvl
    for lvl in "${level_list[@]}"; do
      printf 'echo "== %s"\n' "$lvl"
      printf '%q ' "$clang" "${base_flags[@]}" "$lvl" "${extra_args[@]}" \
        prog.c -o "clang$lvl"
      printf '&& ./clang%s; echo "clang exit $?"\n' "$lvl"
      printf '%q ' "$adcc" "${base_flags[@]}" "$lvl" "${extra_args[@]}" \
        prog.c -o "adcc$lvl"
      printf '&& ./adcc%s; echo "adcc exit $?"\n' "$lvl"
    done
  } >"$dest/repro.sh"
  chmod +x "$dest/repro.sh"
  printf '%s\n' "$reason" >"$dest/REASON"
}

# compile TOOL-TAG COMPILER LEVEL: build prog.c into TAG-LEVEL in the current
# directory, logging stderr to TAG-LEVEL.log. Returns the compiler's status
# (124 on timeout).
compile() {
  local tag=$1 cc=$2 lvl=$3 rc=0
  timeout -k 5 "$compile_timeout" "$cc" "${base_flags[@]}" "$lvl" \
    "${extra_args[@]}" prog.c -o "$tag$lvl" >"$tag$lvl.log" 2>&1 || rc=$?
  return "$rc"
}

# execute TAG LEVEL LIMIT: run the binary TAG-LEVEL, output to TAG-LEVEL.out.
execute() {
  local tag=$1 lvl=$2 limit=$3 rc=0
  timeout -k 1 "$limit" "./$tag$lvl" >"$tag$lvl.out" 2>&1 </dev/null || rc=$?
  return "$rc"
}

run_seed() {
  local seed=$1 rc lvl msg
  local dir=$work/seed-$seed
  mkdir -p "$dir"
  cd "$dir" || return 0

  if ! "$csmith" --seed "$seed" "${csmith_args[@]}" -o prog.c \
      >csmith.log 2>&1; then
    record "$seed" DISCARD "csmith failed: $(first_line csmith.log)"
    return 0
  fi

  # Reference: clang -O0 must build the program and the program must finish.
  rc=0; compile clang "$clang" -O0 || rc=$?
  if [[ $rc -ne 0 ]]; then
    record "$seed" DISCARD "clang -O0 failed to compile (status $rc)"
    return 0
  fi
  rc=0; execute clang -O0 "$run_timeout" || rc=$?
  if [[ $rc -eq 124 || $rc -eq 137 ]]; then
    record "$seed" DISCARD "clang -O0 binary did not finish in ${run_timeout}s"
    return 0
  elif [[ $rc -ne 0 ]]; then
    record "$seed" DISCARD "clang -O0 binary exited with status $rc"
    return 0
  fi

  local checksum=""
  for lvl in "${level_list[@]}"; do
    # clang at this level (-O0 is already built and run above).
    if [[ $lvl != -O0 ]]; then
      rc=0; compile clang "$clang" "$lvl" || rc=$?
      if [[ $rc -ne 0 ]]; then
        record "$seed" DISCARD "clang $lvl failed to compile (status $rc)"
        return 0
      fi
      rc=0; execute clang "$lvl" "$run_timeout" || rc=$?
      if [[ $rc -eq 124 || $rc -eq 137 ]]; then
        record "$seed" DISCARD "clang $lvl binary did not finish in ${run_timeout}s"
        return 0
      fi
    fi
    local clang_rc=$rc

    # adcc at the same level, same flags.
    rc=0; compile adcc "$adcc" "$lvl" || rc=$?
    if grep -Eq "$CRASH_RE" "adcc$lvl.log"; then
      msg="adcc $lvl crashed (status $rc): $(grep -Em1 "$CRASH_RE" "adcc$lvl.log")"
      keep_case "$seed" "$dir" "$msg"; record "$seed" FAIL "$msg"; return 0
    elif [[ $rc -eq 124 || $rc -eq 137 ]]; then
      msg="adcc $lvl compile timed out after ${compile_timeout}s"
      keep_case "$seed" "$dir" "$msg"; record "$seed" FAIL "$msg"; return 0
    elif [[ $rc -ne 0 ]]; then
      msg="adcc $lvl failed to compile (status $rc): $(first_line "adcc$lvl.log")"
      keep_case "$seed" "$dir" "$msg"; record "$seed" FAIL "$msg"; return 0
    fi

    rc=0; execute adcc "$lvl" $((2 * run_timeout)) || rc=$?
    if [[ $rc -eq 124 || $rc -eq 137 ]]; then
      msg="adcc $lvl binary did not finish in $((2 * run_timeout))s"
      msg+=" (clang's did)"
      keep_case "$seed" "$dir" "$msg"; record "$seed" FAIL "$msg"; return 0
    elif [[ $rc -ne $clang_rc ]]; then
      msg="adcc $lvl binary exited with status $rc, clang's with $clang_rc"
      keep_case "$seed" "$dir" "$msg"; record "$seed" FAIL "$msg"; return 0
    elif ! cmp -s "adcc$lvl.out" "clang$lvl.out"; then
      msg="$lvl output differs: adcc '$(first_line "adcc$lvl.out")'"
      msg+=" vs clang '$(first_line "clang$lvl.out")'"
      keep_case "$seed" "$dir" "$msg"; record "$seed" FAIL "$msg"; return 0
    fi
    checksum=$(first_line "clang$lvl.out")
  done

  record "$seed" PASS "$checksum"
  cd "$work" && rm -rf "$dir"
  return 0
}

# ---------------------------------------------------------------------------
# Main loop: at most $jobs workers at a time.
# ---------------------------------------------------------------------------
if [[ $quiet -eq 0 ]]; then
  printf 'csmith-diff: %d seeds, levels: %s, jobs: %d\n' \
    "${#seed_list[@]}" "${level_list[*]}" "$jobs"
  printf '  adcc:   %s\n  clang:  %s\n  csmith: %s (%s)\n' \
    "$adcc" "$clang" "$csmith" "$csmith_opts"
fi

running=0
for s in "${seed_list[@]}"; do
  if [[ $running -ge $jobs ]]; then
    wait -n || true
    running=$((running - 1))
  fi
  run_seed "$s" &
  running=$((running + 1))
done
wait || true

# ---------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------
passed=0 failed=0 discarded=0 missing=0
failed_seeds=() discarded_seeds=()
for s in "${seed_list[@]}"; do
  st=""
  [[ -f $work/status/$s ]] && read -r st _ <"$work/status/$s"
  case $st in
    PASS) passed=$((passed + 1)) ;;
    FAIL) failed=$((failed + 1)); failed_seeds+=("$s") ;;
    DISCARD) discarded=$((discarded + 1)); discarded_seeds+=("$s") ;;
    *) missing=$((missing + 1)); failed_seeds+=("$s")
       printf 'seed %s: FAIL (no result recorded; worker died)\n' "$s" ;;
  esac
done
failed=$((failed + missing))

if [[ ${#discarded_seeds[@]} -gt 0 ]]; then
  printf 'discarded seeds: %s\n' "${discarded_seeds[*]}"
fi
if [[ ${#failed_seeds[@]} -gt 0 ]]; then
  printf 'failed seeds: %s\n' "${failed_seeds[*]}"
  [[ -n $keep_dir ]] && printf 'failing cases kept in %s\n' "$keep_dir"
elif [[ $keep_created -eq 1 ]]; then
  rmdir "$keep_dir" 2>/dev/null || true  # nothing kept: do not leave it behind
fi
printf 'csmith: %d passed, %d failed, %d discarded\n' \
  "$passed" "$failed" "$discarded"

if [[ $failed -gt 0 ]]; then
  exit 1
fi
if [[ $fail_on_discard -eq 1 && $discarded -gt 0 ]]; then
  printf '%s: seeds were discarded but --fail-on-discard is set\n' \
    "$SCRIPT_NAME" >&2
  exit 1
fi
exit 0
