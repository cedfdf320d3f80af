#!/usr/bin/env bash
# mlp_cxx.sh: differentiate a C++ multilayer perceptron written with the
# STL (LinkedIn Learning's course code,
# github.com/LinkedInLearning/training-neural-networks-in-cpp-4404365,
# src/05_04: MLP.h and MLP.cpp unchanged) with adcc++: the gradient of the
# squared error with respect to every weight and input, reverse mode
# against central differences, forward mode and the step
# MultiLayerPerceptron::bp takes (docs/testing.md, "Real programs").
# MLP.cpp is compiled on its own, the derivatives of its member functions
# made at link time. Not part of ctest: the course code is not in this
# repository.
#
#   scripts/realcode/mlp_cxx.sh MLP_DIR [ADCC_CXX] [OPT]
#
# MLP_DIR holds MLP.h and MLP.cpp (the repository's src/05_04). ADCC_CXX
# defaults to build/bin/adcc++; OPT to -O2. Exit status 0 when every check
# passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/MLP.cpp ]]; then
  echo "usage: ${0##*/} MLP_DIR [ADCC_CXX] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -std=c++17 -I"$src")
"$cxx" "${flags[@]}" -c "$src/MLP.cpp" -o "$work/MLP.o"
"$cxx" "${flags[@]}" "$here/mlp_cxx_gradient.cc" "$work/MLP.o" \
  -o "$work/mlp_cxx_gradient"
"$work/mlp_cxx_gradient"
