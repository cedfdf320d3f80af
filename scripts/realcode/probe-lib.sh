# probe-lib.sh: what the probes of a library built per level in several
# ways (cminpack.sh, csparse.sh, kann.sh) share; sourced, not run. After
# `rc_init "$@"` (the script's own arguments: SOURCE_DIR [ADCC] [OPT ...]),
# $cc is the compiler, $levels the optimization levels, $work a temporary
# directory removed at exit; each build is recorded by rc_record and
# rc_finish prints the summary and exits with the status.

rc_init() {
  cc=${2:-$here/../../build/bin/adcc}
  shift $(($# >= 2 ? 2 : 1))
  levels=("$@")
  [[ ${#levels[@]} -gt 0 ]] || levels=(-O0 -O1 -O2 -O3)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  status=0
  summary=()
}

# rc_record NAME BUILT COMMAND...: with BUILT 1, runs COMMAND (the built
# driver) and records NAME as passing when it exits 0; with BUILT 0, NAME
# failed to build.
rc_record() {
  local name=$1 built=$2
  shift 2
  if [[ $built != 1 ]]; then
    summary+=("FAIL $name (build)")
    status=1
    return
  fi
  echo "== $name"
  if "$@"; then
    summary+=("PASS $name")
  else
    summary+=("FAIL $name")
    status=1
  fi
}

# rc_tail COMMAND...: COMMAND's last 40 lines of output, its exit status
# (the scripts set pipefail).
rc_tail() {
  "$@" | tail -40
}

rc_finish() {
  echo "== summary"
  printf '%s\n' "${summary[@]}"
  exit $status
}
