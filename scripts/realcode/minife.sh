#!/usr/bin/env bash
# minife.sh: differentiate miniFE (github.com/Mantevo/miniFE, the implicit
# finite-element mini-app, unchanged) with adcc: one element's diffusion
# matrix and source vector with respect to its node coordinates, the
# whole program (assembly, Dirichlet conditions, conjugate gradients) with
# respect to the boundary values, and the solver with respect to the matrix
# and the right-hand side; reverse mode against central differences and
# forward mode against reverse (docs/testing.md, "Real programs"). Not part
# of ctest: miniFE is not in this repository.
#
#   scripts/realcode/minife.sh MINIFE_DIR [ADCC_CXX] [OPT] [VARIANT]
#
# MINIFE_DIR holds miniFE's ref/ and openmp/ folders; ADCC_CXX defaults to
# build/bin/adcc++; OPT to -O2; VARIANT is ref (the serial reference
# version, the default) or openmp (run at 1, 2 and 4 threads). Exit status
# 0 when every check passes.
set -euo pipefail
variant=${4:-ref}
if [[ $# -lt 1 || ! -f $1/$variant/src/cg_solve.hpp ]]; then
  echo "usage: ${0##*/} MINIFE_DIR [ADCC_CXX] [OPT] [ref|openmp]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/$variant" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# (miniFE's Makefile's types; no MPI.)
flags=("$opt" -I"$src/src" -I"$src/utils" -I"$src/fem" -DMINIFE_SCALAR=double
  -DMINIFE_LOCAL_ORDINAL=int -DMINIFE_GLOBAL_ORDINAL=int -DMINIFE_CSR_MATRIX)
threads=(1)
if [[ $variant == openmp ]]; then
  flags+=(-fopenmp)
  threads=(1 2 4)
fi
"$cxx" "${flags[@]}" -w -c "$src/utils/mytimer.cpp" -o "$work/mytimer.o"
"$cxx" "${flags[@]}" -w "$here/minife_gradient.cc" "$work/mytimer.o" \
  -o "$work/minife_gradient"
status=0
for t in "${threads[@]}"; do
  echo "== $variant $opt, $t thread(s)"
  OMP_NUM_THREADS=$t "$work/minife_gradient" |
    grep -v 'Residual\|Iteration' || status=1
done
exit $status
