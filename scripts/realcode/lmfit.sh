#!/usr/bin/env bash
# lmfit.sh: differentiate lmfit (Joachim Wuttke's Levenberg-Marquardt
# least-squares library, lib/lmmin.c, lmcurve.c and lminvert.c unchanged)
# with adcc: a weighted sum of the fitted parameters, the residual norm and
# the error estimates with respect to the abscissae, the data and the
# starting point, reverse mode against central differences and forward
# mode, and a straight line's fit against its closed form
# (docs/testing.md, "Real programs"). Each of lmfit's files is compiled on
# its own, the derivatives of its functions made at link time. Not part of
# ctest: lmfit is not in this repository.
#
#   scripts/realcode/lmfit.sh LMFIT_DIR [ADCC] [OPT]
#
# LMFIT_DIR holds lib/lmmin.c. ADCC defaults to build/bin/adcc; OPT to
# -O2. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/lib/lmmin.c ]]; then
  echo "usage: ${0##*/} LMFIT_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/lib" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -I"$src")
objs=()
for f in lmmin lmcurve lminvert; do
  "$cc" "${flags[@]}" -c "$src/$f.c" -o "$work/$f.o"
  objs+=("$work/$f.o")
done
"$cc" "${flags[@]}" "$here/lmfit_gradient.c" "${objs[@]}" \
  -o "$work/lmfit_gradient" -lm
"$work/lmfit_gradient"
