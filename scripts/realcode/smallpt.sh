#!/usr/bin/env bash
# smallpt.sh: differentiate smallpt (Kevin Beason's 99-line path tracer,
# smallpt.cpp unchanged; any public copy of the original, e.g.
# github.com/KalinVasilevSV/smallpt) with adcc++: the gradient of a few
# pixels' colors with respect to the camera and every sphere's radius,
# position, emission and color (a global table of spheres made by
# constructors, glibc's erand48 on a per-row state, recursive radiance),
# reverse mode against central differences, forward mode against reverse
# (docs/testing.md, "Real programs"). Not part of ctest: smallpt is not in
# this repository.
#
#   scripts/realcode/smallpt.sh SMALLPT_DIR [ADCC_CXX] [OPT]
#
# SMALLPT_DIR holds smallpt.cpp. ADCC_CXX defaults to build/bin/adcc++; OPT
# to -O2. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/smallpt.cpp ]]; then
  echo "usage: ${0##*/} SMALLPT_DIR [ADCC_CXX] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# smallpt narrows y*y*y into an unsigned short and lets main run off its
# end (GCC warns; Clang's narrowing is an error unless disabled).
flags=("$opt" -Wno-c++11-narrowing -Wno-return-type -I"$src")
"$cxx" "${flags[@]}" "$here/smallpt_gradient.cc" -o "$work/smallpt_gradient"
"$work/smallpt_gradient"
