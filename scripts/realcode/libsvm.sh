#!/usr/bin/env bash
# libsvm.sh: differentiate LIBSVM (github.com/cjlin1/libsvm, svm.cpp
# unchanged, compiled on its own as its Makefile does; the derivatives of its
# functions made when adcc links) with adcc++: the gradient of a weighted sum
# of svm_predict_values's decision values with respect to the test vectors,
# the support vectors, the coefficients, rho, gamma and coef0, for C-SVC and
# epsilon-SVR with the linear, polynomial, RBF and sigmoid kernels, reverse
# mode against central differences and forward mode; then svm_train's
# tangents by forward mode, reported against differences and not counted,
# and svm_train's gradient by reverse mode against those tangents, counted
# (docs/testing.md, "Real programs"). Not part of ctest: LIBSVM is not in this repository.
#
#   scripts/realcode/libsvm.sh LIBSVM_DIR [ADCC_CXX] [OPT] [openmp]
#
# ADCC_CXX defaults to build/bin/adcc++; OPT to -O2; "openmp" builds with
# -fopenmp (svm_predict_values's parallel loops) and runs the prediction
# checks at 1, 2 and 4 threads. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/svm.cpp ]]; then
  echo "usage: ${0##*/} LIBSVM_DIR [ADCC_CXX] [OPT] [openmp]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
flags=("$opt" -I"$src")
threads=(1)
if [[ ${4:-} == openmp ]]; then
  flags+=(-fopenmp)
  threads=(1 2 4)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cxx" "${flags[@]}" -c "$src/svm.cpp" -o "$work/svm.o"
"$cxx" "${flags[@]}" -DLIBSVM_TRAINING "$here/libsvm_gradient.cc" \
  "$work/svm.o" -o "$work/libsvm_gradient"
status=0
for t in "${threads[@]}"; do
  OMP_NUM_THREADS=$t "$work/libsvm_gradient" | tail -1 || status=1
done
"$work/libsvm_gradient" training | tail -1
if "$cxx" "${flags[@]}" -DLIBSVM_TRAINING -DLIBSVM_TRAINING_REVERSE \
    "$here/libsvm_gradient.cc" "$work/svm.o" -o "$work/libsvm_reverse" \
    2>"$work/reverse.log"; then
  "$work/libsvm_reverse" training | tail -2 || status=1
else
  status=1
  echo "svm_train in reverse mode: refused by adcc (a located error):"
  grep -o 'error: .*' "$work/reverse.log" | sort -u | head -3
fi
exit $status
