#!/usr/bin/env bash
# hpccg.sh: differentiate eight iterations of HPCCG's conjugate gradient
# (github.com/Mantevo/HPCCG, unchanged, -DUSING_OMP) with adcc: each of its
# files compiled on its own as its Makefile does, the derivatives of
# functions of other files made at link time; reverse mode against central
# differences and forward mode, at 1, 2 and 4 OpenMP threads
# (docs/testing.md, "Real programs"). Not part of ctest: HPCCG is not in
# this repository.
#
#   scripts/realcode/hpccg.sh HPCCG_DIR [ADCC_CXX] [OPT]
#
# ADCC_CXX defaults to build/bin/adcc++; OPT to -O2. Exit status 0 when
# every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/HPCCG.cpp ]]; then
  echo "usage: ${0##*/} HPCCG_DIR [ADCC_CXX] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -fopenmp -DUSING_OMP -I"$src")
for f in HPCCG HPC_sparsemv ddot waxpby generate_matrix mytimer; do
  "$cxx" "${flags[@]}" -w -c "$src/$f.cpp" -o "$work/$f.o"
done
"$cxx" "${flags[@]}" "$here/hpccg_gradient.cc" "$work"/*.o \
  -o "$work/hpccg_gradient"
status=0
for threads in 1 2 4; do
  echo "== $threads thread(s)"
  OMP_NUM_THREADS=$threads "$work/hpccg_gradient" | grep -v Residual ||
    status=1
done
exit $status
