#!/usr/bin/env bash
# xsbench.sh: differentiate XSBench's cross-section lookups
# (github.com/ANL-CESAR/XSBench, openmp-threading/, unchanged) with adcc
# and check them against central differences and forward against reverse,
# on the unionized, nuclide and hash grids (VARIANT grids), or through
# optimization 1's parallel sorts (VARIANT sorts), at 1, 2 and 4 OpenMP threads
# (docs/testing.md, "Real programs"). Not part of ctest: XSBench is not in
# this repository.
#
#   scripts/realcode/xsbench.sh XSBENCH_DIR [ADCC] [OPT] [VARIANT]
#
# XSBENCH_DIR holds XSBench's openmp-threading/ folder; ADCC defaults to
# build/bin/adcc; OPT to -O2; VARIANT to grids. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/openmp-threading/Simulation.c ]]; then
  echo "usage: ${0##*/} XSBENCH_DIR [ADCC] [OPT] [grids|sorts]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/openmp-threading" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
variant=${4:-grids}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -std=gnu99 -fopenmp -DOPENMP -I"$src")
for f in GridInit Materials XSutils io; do
  "$cc" "${flags[@]}" -w -c "$src/$f.c" -o "$work/$f.o"
done
runs=(0 1 2)
if [[ $variant == sorts ]]; then
  flags+=(-DXSBENCH_SORTS)
  runs=(sorts)
fi
"$cc" "${flags[@]}" "$here/xsbench_gradient.c" "$work"/*.o \
  -o "$work/xsbench_gradient" -lm
status=0
for grid in "${runs[@]}"; do
  for threads in 1 2 4; do
    OMP_NUM_THREADS=$threads "$work/xsbench_gradient" $grid |
      grep -v '^Intializ' || status=1
  done
done
exit $status
