# campaign.sh: what the testing campaigns scripts/csmith-diff.sh and
# scripts/adfuzz.sh share: the --keep directory, and a work area removed on
# exit whose background workers are stopped on interrupt. Sourced after the
# script defines die(); uses and sets keep_dir, keep_created and work.
# shellcheck shell=bash

# Makes $keep_dir (if set) an existing absolute directory; keep_created=1
# when this run created it.
# shellcheck disable=SC2034  # keep_created is read by the sourcing script
campaign_keep_dir() {
  keep_created=0
  [[ -n $keep_dir ]] || return 0
  [[ -d $keep_dir ]] || keep_created=1
  mkdir -p "$keep_dir" || die "cannot create --keep directory $keep_dir"
  keep_dir=$(cd "$keep_dir" && pwd)
}

# shellcheck disable=SC2317  # invoked by the EXIT trap
campaign_cleanup() {
  local pids
  pids=$(jobs -p)
  if [[ -n $pids ]]; then
    # shellcheck disable=SC2086  # word splitting of the pid list is intended
    kill $pids 2>/dev/null || true
    wait 2>/dev/null || true
  fi
  rm -rf "$work"
}

# campaign_work_area NAME: a new temporary directory in $work (with a
# status/ subdirectory), removed on exit.
campaign_work_area() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
  trap campaign_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  mkdir -p "$work/status"
}
