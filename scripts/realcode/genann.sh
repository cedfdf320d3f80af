#!/usr/bin/env bash
# genann.sh: differentiate genann (github.com/codeplea/genann, genann.c
# unchanged) with adcc: the gradient of a network's squared error with
# respect to every weight and input, reverse mode against central
# differences, forward mode and the step genann_train takes, for the exact
# activations, genann's default cached sigmoid (a table lookup: a gradient
# of 0 below it, with adcc's warning) and that activation with a custom
# derivative (docs/testing.md, "Real programs"). genann.c is compiled on its
# own, the derivatives of its functions made at link time. Not part of
# ctest: genann is not in this repository.
#
#   scripts/realcode/genann.sh GENANN_DIR [ADCC] [OPT]
#
# ADCC defaults to build/bin/adcc; OPT to -O2. Exit status 0 when every
# check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/genann.c ]]; then
  echo "usage: ${0##*/} GENANN_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -I"$src")
"$cc" "${flags[@]}" -c "$src/genann.c" -o "$work/genann.o"
"$cc" "${flags[@]}" "$here/genann_gradient.c" "$work/genann.o" \
  -o "$work/genann_gradient" -lm
"$cc" "${flags[@]}" -DGENANN_CACHED_RULE "$here/genann_gradient.c" \
  "$work/genann.o" -o "$work/genann_rule" -lm
status=0
for part in exact train cached; do
  "$work/genann_gradient" $part || status=1
done
"$work/genann_rule" rule || status=1
exit $status
