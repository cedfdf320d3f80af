#!/usr/bin/env bash
# tinyexpr.sh: differentiate tinyexpr (github.com/codeplea/tinyexpr,
# tinyexpr.c unchanged) with adcc: te_eval of compiled expressions with
# respect to the variables they bind, the expressions calling every
# function of tinyexpr's table (libm through function pointers), its
# operators, user functions and closures; compiled inside the
# differentiated function and outside with a shadow tree; reverse mode
# against central differences and analytic gradients, forward mode against
# reverse (docs/testing.md, "Real programs"). tinyexpr.c is compiled on its
# own, twice (as it is and with TE_POW_FROM_RIGHT and TE_NAT_LOG), the
# derivatives of its functions made at link time. Not part of ctest:
# tinyexpr is not in this repository.
#
#   scripts/realcode/tinyexpr.sh TINYEXPR_DIR [ADCC] [OPT]
#
# ADCC defaults to build/bin/adcc; OPT to -O2. Exit status 0 when every
# check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/tinyexpr.c ]]; then
  echo "usage: ${0##*/} TINYEXPR_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for variant in default right; do
  defs=()
  [[ $variant == right ]] && defs=(-DTE_POW_FROM_RIGHT -DTE_NAT_LOG)
  "$cc" "$opt" "${defs[@]}" -I"$src" -c "$src/tinyexpr.c" -o "$work/te.o"
  "$cc" "$opt" -I"$src" "$here/tinyexpr_gradient.c" "$work/te.o" \
    -o "$work/tinyexpr_gradient" -lm
  for mode in inside tree; do
    echo "== $variant $mode $opt"
    "$work/tinyexpr_gradient" $mode || status=1
  done
done
exit $status
