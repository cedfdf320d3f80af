#!/usr/bin/env bash
# rodinia.sh: differentiate programs of Rodinia's OpenMP suite
# (github.com/yuhc/gpu-rodinia or the official tarball, openmp/, unchanged)
# with adcc and check them against central differences and forward against
# reverse, at 1, 2 and 4 OpenMP threads (docs/testing.md, "Real
# programs"). Not part of ctest: Rodinia is not in this repository.
#
#   scripts/realcode/rodinia.sh RODINIA_DIR [ADCC] [OPT] [PROGRAM ...]
#
# RODINIA_DIR holds Rodinia's openmp/ folder; ADCC defaults to
# build/bin/adcc; OPT to -O2; PROGRAMs to all of: backprop hotspot lud cfd. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -d $1/openmp/backprop ]]; then
  echo "usage: ${0##*/} RODINIA_DIR [ADCC] [OPT] [PROGRAM ...]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/openmp" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
shift $(($# < 3 ? $# : 3))
programs=("$@")
[[ ${#programs[@]} -gt 0 ]] || programs=(backprop hotspot lud cfd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Rodinia's C is K&R in places (implicit int, old-style definitions).
cflags=("$opt" -fopenmp -w -I"$here" -std=gnu17 -Wno-error=implicit-int
  -Wno-error=implicit-function-declaration)
cxxflags=("$opt" -fopenmp -w -I"$here")
status=0
for p in "${programs[@]}"; do
  case $p in
  backprop)
    "$cc" "${cflags[@]}" -I"$src/backprop" "$here/rodinia_backprop.c" \
      -o "$work/$p" -lm ;;
  hotspot)
    "$cc"++ "${cxxflags[@]}" -I"$src/hotspot" "$here/rodinia_hotspot.cc" \
      -o "$work/$p" ;;
  lud)
    "$cc" "${cflags[@]}" -I"$src/lud/omp" -I"$src/lud/common" \
      "$here/rodinia_lud.c" -o "$work/$p" -lm ;;
  cfd)
    "$cc"++ "${cxxflags[@]}" -I"$src/cfd" "$here/rodinia_cfd.cc" \
      -o "$work/$p" ;;
  *)
    echo "unknown program $p" >&2
    exit 2 ;;
  esac
  for threads in 1 2 4; do
    echo "== $p, $threads thread(s)"
    OMP_NUM_THREADS=$threads "$work/$p" || status=1
  done
done
exit $status
