#!/usr/bin/env bash
# tinn.sh: differentiate Tinn (github.com/glouw/tinn, Tinn.c unchanged)
# with adcc: the gradient of the network's error with respect to every
# weight, bias and input, reverse mode against central differences, forward
# mode and the step xttrain takes, the Tinn passed by pointer and by value
# (docs/testing.md, "Real programs"). Tinn.c is compiled on its own, the
# derivatives of its functions made at link time. Not part of ctest: Tinn
# is not in this repository.
#
#   scripts/realcode/tinn.sh TINN_DIR [ADCC] [OPT]
#
# ADCC defaults to build/bin/adcc; OPT to -O2. Exit status 0 when every
# check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/Tinn.c ]]; then
  echo "usage: ${0##*/} TINN_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -I"$src")
"$cc" "${flags[@]}" -c "$src/Tinn.c" -o "$work/Tinn.o"
"$cc" "${flags[@]}" "$here/tinn_gradient.c" "$work/Tinn.o" \
  -o "$work/tinn_gradient" -lm
"$work/tinn_gradient"
