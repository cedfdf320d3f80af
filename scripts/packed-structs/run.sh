#!/bin/bash
# Probes derivatives through structs of floats and integers packed by the
# x86-64 ABI (docs/testing.md, "Packed structs"): each generated program
# at -O0..-O3, as C and as C++, both modes against central differences.
# Usage: scripts/packed-structs/run.sh [BUILD_DIR] [JOBS] (PROBE_FILTER=r_fi:
# one program, a glob of gen.py's names); prints one line
# per program, language and level ("ok", FAIL lines, or the first error)
# and a summary; exits 1 where a derivative was wrong or adcc crashed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "${1:-$here/../../build}" && pwd)/bin
jobs=${2:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen.py" "$work/src"
probe() {
  c=$1; base=$(basename "$c" .c); d=$(mktemp -d "$work/run.XXXX")
  for lang in c cpp; do
    for O in 0 1 2 3; do
      src=$c; cc=$bin/adcc
      if [ $lang = cpp ]; then cc=$bin/adcc++; src=$d/$base.cpp; cp "$c" "$src"; fi
      if out=$(timeout 120 "$cc" -O$O -include "$here/harness.h" "$src" -o "$d/bin" -lm 2>&1); then
        r=$(timeout 20 "$d/bin" 2>&1 | tr '\n' ' ')
      elif echo "$out" | grep -q 'Stack dump\|unable to execute'; then
        r="FAIL crash: $(echo "$out" | grep -m1 'error:' | cut -c1-150)"
      else
        r="ERR $(echo "$out" | grep -m1 'error:' | sed 's/.*error: //' | cut -c1-150)"
      fi
      echo "$base $lang -O$O: $r"
    done
  done
}
export -f probe
export bin here work
ls "$work"/src/${PROBE_FILTER:-*}.c | xargs -P "$jobs" -I{} bash -c 'probe {}' | sort > "$work/results"
cat "$work/results"
echo "ok: $(grep -c ': ok' "$work/results"), located errors: $(grep -c ': ERR' "$work/results"), wrong: $(grep -c 'FAIL' "$work/results")"
! grep -q FAIL "$work/results"
