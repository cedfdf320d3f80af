#!/usr/bin/env bash
# Probes of pointers made from integers (issue 33): each case in cases/ is
# compiled with adcc at -O0..-O3 and run (probe.h checks reverse and
# forward mode against central differences). Prints, per case and level:
#   ok      the derivatives are right
#   error   adcc refused it with a located error (exit status 1)
#   WRONG   the derivatives differ from the differences (silently)
#   CRASH   the compiler or the program crashed
#   run.sh [ADCC] [case...]     (ADCC defaults to build/bin/adcc)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
adcc=${1:-$here/../../build/bin/adcc}
shift || true
cases=("$@")
if [[ ${#cases[@]} == 0 ]]; then
  for c in "$here"/cases/*.c "$here"/cases/*.cpp; do
    [[ $c == *.extra.c ]] || cases+=("$c")
  done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in "${cases[@]}"; do
  name=$(basename "${c%.*}")
  cc=$adcc
  [[ $c == *.cpp ]] && cc=${adcc}++
  line="$name:"
  for o in -O0 -O1 -O2 -O3; do
    extra=()
    [[ -f ${c%.*}.extra.c ]] && extra=("${c%.*}.extra.c")
    if "$cc" $o -I"$here" "$c" "${extra[@]}" -o "$tmp/p" -lm \
        >"$tmp/log" 2>&1; then
      if "$tmp/p" >"$tmp/out" 2>&1; then r=ok
      elif grep -q WRONG "$tmp/out"; then r=WRONG
      else r=CRASH; fi
    else
      s=$?
      if [[ $s == 1 ]] && grep -q "error:" "$tmp/log" &&
          ! grep -q "Stack dump\|internal error" "$tmp/log"; then r=error
      else r=CRASH; fi
    fi
    line+=" $o=$r"
    [[ -n ${VERBOSE:-} && $r != ok ]] && { cat "$tmp/log" "$tmp/out" 2>/dev/null | head -5; }
  done
  echo "$line"
done
