#!/usr/bin/env bash
# kissfft.sh: differentiate KISS FFT (github.com/mborgerding/kissfft,
# kiss_fft.c and kiss_fftr.c unchanged, kiss_fft_scalar double) with adcc:
# the gradient of weighted spectral energies with respect to the signal for
# the complex FFT (every butterfly) and the real FFT, and of a convolution
# by FFT with respect to the signal and the filter; reverse mode against
# analytic values (Parseval's identity among them) and central differences,
# forward mode against reverse (docs/testing.md, "Real programs"). Each
# file compiled on its own, the derivatives of the library's functions made
# at link time. Not part of ctest: KISS FFT is not in this repository.
#
#   scripts/realcode/kissfft.sh KISSFFT_DIR [ADCC] [OPT]
#
# ADCC defaults to build/bin/adcc; OPT to -O2. Exit status 0 when every
# check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/kiss_fftr.c ]]; then
  echo "usage: ${0##*/} KISSFFT_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -Dkiss_fft_scalar=double -I"$src")
for f in kiss_fft kiss_fftr; do
  "$cc" "${flags[@]}" -c "$src/$f.c" -o "$work/$f.o"
done
"$cc" "${flags[@]}" "$here/kissfft_gradient.c" "$work"/*.o \
  -o "$work/kissfft_gradient" -lm
status=0
for part in complex real convolution; do
  "$work/kissfft_gradient" $part || status=1
done
exit $status
