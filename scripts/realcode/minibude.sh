#!/usr/bin/env bash
# minibude.sh: differentiate miniBUDE's OpenMP model
# (github.com/UoB-HPC/miniBUDE, src/omp/fasten.hpp and src/bude.h,
# unchanged) with adcc and check the gradient of its docking energies
# (reverse mode; forward mode against it; central differences) at 1, 2 and
# 4 OpenMP threads (docs/testing.md, "Real programs"). Not part of ctest:
# miniBUDE is not in this repository; its decks are not needed.
#
#   scripts/realcode/minibude.sh MINIBUDE_DIR [ADCC_CXX] [OPT]
#
# MINIBUDE_DIR holds src/bude.h and src/omp/fasten.hpp; ADCC_CXX defaults to
# build/bin/adcc++; OPT to -O2. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/src/omp/fasten.hpp ]]; then
  echo "usage: ${0##*/} MINIBUDE_DIR [ADCC_CXX] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/src" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# (Clang 19 and later make `devices.template emplace_back(...)` in
# fasten.hpp an error by default; clang++ needs the same flag.)
"$cxx" "$opt" -std=c++17 -fopenmp -I"$src" \
  -Wno-missing-template-arg-list-after-template-kw -Wno-pass-failed \
  "$here/minibude_gradient.cc" -o "$work/minibude_gradient"
status=0
for threads in 1 2 4; do
  echo "== $threads thread(s)"
  OMP_NUM_THREADS=$threads "$work/minibude_gradient" || status=1
done
exit $status
