#!/usr/bin/env bash
# rsbench.sh: differentiate RSBench's cross-section lookups
# (github.com/ANL-CESAR/RSBench, openmp-threading/, unchanged) with adcc
# and check them against central differences and forward against reverse,
# with and without Doppler broadening, at 1, 2 and 4 OpenMP threads
# (docs/testing.md, "Real programs"). Not part of ctest: RSBench is not in
# this repository.
#
#   scripts/realcode/rsbench.sh RSBENCH_DIR [ADCC] [OPT]
#
# RSBENCH_DIR holds RSBench's openmp-threading/ folder; ADCC defaults to
# build/bin/adcc; OPT to -O2. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/openmp-threading/simulation.c ]]; then
  echo "usage: ${0##*/} RSBENCH_DIR [ADCC] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/openmp-threading" && pwd)
cc=${2:-$here/../../build/bin/adcc}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -std=gnu99 -fopenmp -I"$src")
for f in init material utils io; do
  "$cc" "${flags[@]}" -w -c "$src/$f.c" -o "$work/$f.o"
done
"$cc" "${flags[@]}" "$here/rsbench_gradient.c" "$work"/*.o \
  -o "$work/rsbench_gradient" -lm
status=0
for doppler in 0 1; do
  for threads in 1 2 4; do
    OMP_NUM_THREADS=$threads "$work/rsbench_gradient" $doppler |
      grep -v '^Loading\|^Generating' || status=1
  done
done
exit $status
