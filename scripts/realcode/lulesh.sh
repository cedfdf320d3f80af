#!/usr/bin/env bash
# lulesh.sh: differentiate LULESH 2.0 (github.com/LLNL/LULESH, unchanged)
# with adcc and check its gradient (reverse and forward mode) against
# central differences at 1, 2 and 4 OpenMP threads (docs/testing.md, "Real
# programs"). Not part of ctest: LULESH is not in this repository.
#
#   scripts/realcode/lulesh.sh LULESH_DIR [ADCC_CXX] [OPT]
#
# LULESH_DIR holds lulesh.cc and its other sources; ADCC_CXX defaults to
# build/bin/adcc++; OPT to -O2. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/lulesh.cc ]]; then
  echo "usage: ${0##*/} LULESH_DIR [ADCC_CXX] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -fopenmp -DUSE_MPI=0 -I"$src")
for f in lulesh-comm lulesh-viz lulesh-util lulesh-init; do
  "$cxx" "${flags[@]}" -w -c "$src/$f.cc" -o "$work/$f.o"
done
"$cxx" "${flags[@]}" -w -c "$here/lulesh_gradient.cc" -o "$work/gradient.o"
"$cxx" "$opt" -fopenmp "$work"/*.o -o "$work/lulesh_gradient" -lm
status=0
for threads in 1 2 4; do
  echo "== $threads thread(s)"
  OMP_NUM_THREADS=$threads "$work/lulesh_gradient" 5 3 || status=1
done
exit $status
