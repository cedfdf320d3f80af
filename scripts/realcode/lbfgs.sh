#!/usr/bin/env bash
# lbfgs.sh: differentiate with liblbfgs (github.com/chokkan/liblbfgs,
# lib/lbfgs.c unchanged, double precision, no SSE) and adcc: the value an
# L-BFGS run reaches after a fixed number of iterations, differentiated
# with respect to the objective's parameters through the optimizer (its
# callback called through a function pointer, its line searches'
# branches); the callback's gradient computed by __enzyme_autodiff and
# __enzyme_fwddiff inside the callback; and both at once. Reverse mode
# against central differences and hand-written gradients, forward mode
# against reverse (docs/testing.md, "Real programs"). lbfgs.c is compiled
# on its own, the derivatives of its functions made at link time. Not part
# of ctest: liblbfgs is not in this repository.
#
#   scripts/realcode/lbfgs.sh LIBLBFGS_DIR [ADCC] [OPT]
#
# ADCC defaults to build/bin/adcc; OPT to -O2. Exit status 0 when every
# check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/lib/lbfgs.c ]]; then
  echo "usage: ${0##*/} LIBLBFGS_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cc" "$opt" -I"$src/include" -c "$src/lib/lbfgs.c" -o "$work/lbfgs.o"
# (Without a progress callback, lbfgs's null proc_progress; and with one.)
"$cc" "$opt" -I"$src/include" "$here/lbfgs_gradient.c" "$work/lbfgs.o" \
  -o "$work/lbfgs_gradient" -lm
"$cc" "$opt" -I"$src/include" -DLBFGS_PROGRESS "$here/lbfgs_gradient.c" \
  "$work/lbfgs.o" -o "$work/lbfgs_gradient_progress" -lm
status=0
for variant in lbfgs_gradient lbfgs_gradient_progress; do
  for part in through callback nested; do
    echo "== $variant $part $opt"
    "$work/$variant" $part || status=1
  done
done
exit $status
