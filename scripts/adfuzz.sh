#!/usr/bin/env bash
# adfuzz.sh: derivative fuzzing of adcc.
#
# For every seed this script
#   1. generates a random differentiable C program with
#      tools/adfuzz/gen.py --seed S (the program checks its own derivatives:
#      reverse mode, forward mode and central finite differences against each
#      other, and the primal computed inside the derivative calls against a
#      plain call; it exits 1 on a mismatch);
#   2. for each optimization level (-O0 and -O2 by default) compiles it with
#      adcc and runs it;
#   3. compares the primal values and gradients printed at the different
#      levels (tools/adfuzz/cmpout.py).
#
# A seed FAILS when the generator fails; when adcc crashes, times out or
# prints a crash signature ("PLEASE submit a bug report", "Stack dump",
# "Assertion") while compiling it; when adcc rejects it with an error that is
# not one of its documented "not implemented / not supported yet"
# diagnostics; when the binary crashes, times out, reports a mismatch or a
# non-finite primal; or when the levels disagree. A seed rejected only with a
# documented "not supported yet" diagnostic is UNSUPPORTED: never counted as
# passed, listed in the summary.
#
# Exit status: 0 if every seed passed, 1 if any failed (or, with
# --fail-on-unsupported, was unsupported), 2 on a usage or setup error.

set -euo pipefail

readonly SCRIPT_NAME=${0##*/}
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly SCRIPT_DIR
readonly SOURCE_DIR=${SCRIPT_DIR%/scripts}
readonly GEN=$SOURCE_DIR/tools/adfuzz/gen.py
readonly CMPOUT=$SOURCE_DIR/tools/adfuzz/cmpout.py

usage() {
  cat <<EOF
Usage: $SCRIPT_NAME [options]

Derivative fuzzing: random differentiable C programs compiled by adcc must
get the same derivatives from forward mode, reverse mode and finite
differences, at every optimization level.

Options:
  --seeds SPEC         seeds to test: a range "A..B" or a list "S1 S2 ..."
  --count N            number of consecutive seeds (default 100)
  --start S            first seed for --count (default 1)
  --cc PATH            adcc compiler (default: \$ADCC, else
                       $SOURCE_DIR/build/bin/adcc)
  --python PATH        python3 for the generator (default: python3)
  --gen-version V      the generator version whose programs to test
                       (default: the newest; older ones keep the programs
                       that regression seeds were chosen from)
  -j, --jobs J         seeds processed in parallel (default 1, at most nproc)
  --levels "L ..."     optimization levels (default "-O0 -O2")
  --extra-flags "..."  extra compiler flags
  --timeout SEC        run-time limit per binary (default 10)
  --compile-timeout S  limit per compilation (default 120)
  --keep DIR           keep failing and unsupported cases in DIR/seed-S/
  --fail-on-unsupported  also exit non-zero if a seed was unsupported
  -q, --quiet          print only failures, unsupported seeds and the summary
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
python=python3
gen_version=""
seeds=""
count=100
start=1
jobs=1
levels="-O0 -O2"
extra_flags=""
run_timeout=10
compile_timeout=120
keep_dir=""
fail_on_unsupported=0
quiet=0

need_arg() {
  [[ $# -ge 2 ]] || die "option $1 needs an argument"
}

while [[ $# -gt 0 ]]; do
  case $1 in
    --seeds) need_arg "$@"; seeds=$2; shift 2 ;;
    --count) need_arg "$@"; count=$2; shift 2 ;;
    --start) need_arg "$@"; start=$2; shift 2 ;;
    --cc|--adcc) need_arg "$@"; adcc=$2; shift 2 ;;
    --python) need_arg "$@"; python=$2; shift 2 ;;
    --gen-version) need_arg "$@"; gen_version=$2; shift 2 ;;
    -j|--jobs) need_arg "$@"; jobs=$2; shift 2 ;;
    --levels) need_arg "$@"; levels=$2; shift 2 ;;
    --extra-flags) need_arg "$@"; extra_flags=$2; shift 2 ;;
    --timeout) need_arg "$@"; run_timeout=$2; shift 2 ;;
    --compile-timeout) need_arg "$@"; compile_timeout=$2; shift 2 ;;
    --keep) need_arg "$@"; keep_dir=$2; shift 2 ;;
    --fail-on-unsupported) fail_on_unsupported=1; shift ;;
    -q|--quiet) quiet=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option: $1" ;;
  esac
done

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }
is_posint() { [[ $1 =~ ^[0-9]+$ && $1 -ge 1 ]]; }
is_uint "$count" || die "--count must be a non-negative integer"
is_uint "$start" || die "--start must be a non-negative integer"
is_posint "$jobs" || die "--jobs must be a positive integer"
is_posint "$run_timeout" || die "--timeout must be a positive integer"
is_posint "$compile_timeout" \
  || die "--compile-timeout must be a positive integer"

if [[ -z $seeds ]]; then
  seeds=$(seq "$start" $((start + count - 1)) | tr '\n' ' ')
elif [[ $seeds =~ ^([0-9]+)\.\.([0-9]+)$ ]]; then
  [[ ${BASH_REMATCH[1]} -le ${BASH_REMATCH[2]} ]] \
    || die "empty seed range $seeds"
  seeds=$(seq "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" | tr '\n' ' ')
fi
read -r -a seed_list <<<"$seeds"
for s in "${seed_list[@]}"; do
  is_uint "$s" || die "seed '$s' is not a non-negative integer"
done
[[ ${#seed_list[@]} -gt 0 ]] || die "no seeds to test"
read -r -a level_list <<<"$levels"
[[ ${#level_list[@]} -gt 0 ]] || die "--levels is empty"
read -r -a extra_args <<<"$extra_flags"

ncpu=$(nproc 2>/dev/null || echo 1)
[[ $jobs -le $ncpu ]] || jobs=$ncpu

# ---------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------
resolve_tool() {  # resolve_tool NAME PATH -> absolute path of the executable
  local p
  p=$(command -v "$2") || die "$1 not found: $2"
  [[ -x $p ]] || die "$1 is not executable: $p"
  case $p in /*) ;; *) p=$PWD/$p ;; esac
  printf '%s\n' "$p"
}
adcc=$(resolve_tool adcc "$adcc")
python=$(resolve_tool python3 "$python")
[[ -f $GEN && -f $CMPOUT ]] || die "generator not found in $SOURCE_DIR/tools/adfuzz"
command -v timeout >/dev/null || die "timeout (coreutils) not found"

# shellcheck source=scripts/lib/campaign.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/campaign.sh"
campaign_keep_dir

# Work area, removed on exit; background workers are stopped on interrupt.
campaign_work_area adfuzz

readonly CRASH_RE='PLEASE submit a bug report|Stack dump|Assertion'
# adcc's documented diagnostics for what it does not differentiate yet
# (docs/forward-mode.md, docs/reverse-mode.md, docs/api.md); since
# generator version 19 also a copy whose bytes nothing types (a double
# moved through a field that no code of the program writes doubles through).
readonly UNSUPPORTED_RE='is not (implemented|supported) yet|not supported yet (by|in)|is not supported by adcc|a memory copy whose contents cannot be typed'

base_flags=(-w)

# ---------------------------------------------------------------------------
# One seed
# ---------------------------------------------------------------------------

# record SEED STATUS MESSAGE: store the outcome and print one line.
record() {
  printf '%s %s\n' "$2" "$3" >"$work/status/$1"
  if [[ $quiet -eq 0 || $2 != PASS ]]; then
    printf 'seed %s: %s%s\n' "$1" "$2" "${3:+ ($3)}"
  fi
}

first_line() {  # first_line FILE [PATTERN]
  local l=""
  if [[ $# -gt 1 ]]; then
    l=$(grep -Em1 "$2" "$1" 2>/dev/null || true)
  elif [[ -s $1 ]]; then
    IFS= read -r l <"$1" || true
  fi
  printf '%s' "${l:0:200}"
}

# keep_case SEED DIR REASON: copy the case to the --keep directory with a
# script that rebuilds and reruns it.
keep_case() {
  local seed=$1 dir=$2 reason=$3 dest lvl
  [[ -n $keep_dir ]] || return 0
  dest=$keep_dir/seed-$seed
  rm -rf "$dest"
  mkdir -p "$dest"
  cp "$dir"/prog.c "$dest"/ 2>/dev/null || true
  cp "$dir"/*.log "$dir"/*.out "$dest"/ 2>/dev/null || true
  {
    printf '#!/usr/bin/env bash\n'
    printf '# adfuzz seed %s: %s\n' "$seed" "$reason"
    printf '# Regenerate the program (already saved as prog.c):\n#   '
    printf '%q ' python3 tools/adfuzz/gen.py --seed "$seed" \
      ${gen_version:+--version "$gen_version"} -o prog.c
    # shellcheck disable=SC2016  # $0 is expanded when repro.sh runs
    printf '\nset -u\ncd "$(dirname "$0")"\nADCC=${ADCC:-%q}\n' "$adcc"
    for lvl in "${level_list[@]}"; do
      printf 'echo "== %s"\n' "$lvl"
      # shellcheck disable=SC2016  # expanded when repro.sh runs
      printf '"$ADCC" '
      printf '%q ' "${base_flags[@]}" "$lvl" "${extra_args[@]}" prog.c \
        -o "prog$lvl" -lm
      printf '&& ./prog%s; echo "exit $?"\n' "$lvl"
    done
  } >"$dest/repro.sh"
  chmod +x "$dest/repro.sh"
  printf '%s\n' "$reason" >"$dest/REASON"
}

# verdict SEED DIR STATUS MESSAGE
verdict() {
  [[ $3 == PASS ]] || keep_case "$1" "$2" "$4"
  record "$1" "$3" "$4"
}

run_seed() {
  local seed=$1 rc lvl msg unsupported="" first=""
  local dir=$work/seed-$seed
  mkdir -p "$dir"
  cd "$dir" || return 0

  if ! "$python" "$GEN" --seed "$seed" ${gen_version:+--version "$gen_version"} \
      -o prog.c >gen.log 2>&1; then
    verdict "$seed" "$dir" FAIL "generator failed: $(first_line gen.log)"
    return 0
  fi

  for lvl in "${level_list[@]}"; do
    rc=0
    timeout -k 5 "$compile_timeout" "$adcc" "${base_flags[@]}" "$lvl" \
      "${extra_args[@]}" prog.c -o "prog$lvl" -lm >"adcc$lvl.log" 2>&1 || rc=$?
    if grep -Eq "$CRASH_RE" "adcc$lvl.log"; then
      msg="adcc $lvl crashed (status $rc): $(first_line "adcc$lvl.log" "$CRASH_RE")"
      verdict "$seed" "$dir" FAIL "$msg"; return 0
    elif [[ $rc -eq 126 || $rc -eq 127 ]]; then
      # the compiler vanished (rebuilt while the campaign runs?)
      msg="could not run adcc (status $rc): $(first_line "adcc$lvl.log")"
      verdict "$seed" "$dir" FAIL "$msg"; return 0
    elif [[ $rc -eq 124 || $rc -eq 137 ]]; then
      verdict "$seed" "$dir" FAIL "adcc $lvl compile timed out after ${compile_timeout}s"
      return 0
    elif [[ $rc -ne 0 ]] && grep -Eq "$UNSUPPORTED_RE" "adcc$lvl.log"; then
      unsupported+="${unsupported:+; }$lvl: $(first_line "adcc$lvl.log" "$UNSUPPORTED_RE")"
      continue
    elif [[ $rc -ne 0 ]]; then
      msg="adcc $lvl failed to compile (status $rc): $(first_line "adcc$lvl.log" 'error')"
      verdict "$seed" "$dir" FAIL "$msg"; return 0
    fi

    rc=0
    timeout -k 1 "$run_timeout" "./prog$lvl" >"prog$lvl.out" 2>&1 </dev/null || rc=$?
    if [[ $rc -eq 124 || $rc -eq 137 ]]; then
      verdict "$seed" "$dir" FAIL "$lvl binary did not finish in ${run_timeout}s"
      return 0
    elif [[ $rc -eq 1 ]]; then
      msg="$lvl wrong derivatives: $(first_line "prog$lvl.out" '^MISMATCH|FAIL')"
      verdict "$seed" "$dir" FAIL "$msg"; return 0
    elif [[ $rc -eq 2 ]]; then
      msg="$lvl: the primal is not finite (a generator bug)"
      verdict "$seed" "$dir" FAIL "$msg"; return 0
    elif [[ $rc -ne 0 ]]; then
      msg="$lvl binary exited with status $rc"
      [[ $rc -gt 128 ]] && msg+=" (signal $((rc - 128)))"
      verdict "$seed" "$dir" FAIL "$msg"; return 0
    fi

    if [[ -z $first ]]; then
      first=$lvl
    elif ! msg=$("$python" "$CMPOUT" "prog$first.out" "prog$lvl.out"); then
      verdict "$seed" "$dir" FAIL "$first vs $lvl differ: $msg"; return 0
    fi
  done

  if [[ -n $unsupported ]]; then
    verdict "$seed" "$dir" UNSUPPORTED "$unsupported"
  else
    verdict "$seed" "$dir" PASS "$(first_line "prog$first.out" '^primal L')"
  fi
  cd "$work" && rm -rf "$dir"
  return 0
}

# ---------------------------------------------------------------------------
# Main loop: at most $jobs workers at a time.
# ---------------------------------------------------------------------------
if [[ $quiet -eq 0 ]]; then
  printf 'adfuzz: %d seeds, levels: %s, jobs: %d\n' \
    "${#seed_list[@]}" "${level_list[*]}" "$jobs"
  printf '  adcc: %s\n' "$adcc"
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
passed=0 failed=0 unsupported=0
failed_seeds=() unsupported_seeds=()
for s in "${seed_list[@]}"; do
  st=""
  [[ -f $work/status/$s ]] && read -r st _ <"$work/status/$s"
  case $st in
    PASS) passed=$((passed + 1)) ;;
    FAIL) failed=$((failed + 1)); failed_seeds+=("$s") ;;
    UNSUPPORTED) unsupported=$((unsupported + 1)); unsupported_seeds+=("$s") ;;
    *) failed=$((failed + 1)); failed_seeds+=("$s")
       printf 'seed %s: FAIL (no result recorded; worker died)\n' "$s" ;;
  esac
done

if [[ ${#unsupported_seeds[@]} -gt 0 ]]; then
  printf 'unsupported seeds: %s\n' "${unsupported_seeds[*]}"
fi
if [[ ${#failed_seeds[@]} -gt 0 ]]; then
  printf 'failed seeds: %s\n' "${failed_seeds[*]}"
fi
if [[ -n $keep_dir ]]; then
  if [[ $failed -gt 0 || $unsupported -gt 0 ]]; then
    printf 'cases kept in %s\n' "$keep_dir"
  elif [[ $keep_created -eq 1 ]]; then
    rmdir "$keep_dir" 2>/dev/null || true
  fi
fi
printf 'adfuzz: %d passed, %d failed, %d unsupported\n' \
  "$passed" "$failed" "$unsupported"

if [[ $failed -gt 0 ]]; then
  exit 1
fi
if [[ $fail_on_unsupported -eq 1 && $unsupported -gt 0 ]]; then
  exit 1
fi
exit 0
