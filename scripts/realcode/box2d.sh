#!/usr/bin/env bash
# box2d.sh: differentiate Box2D v2.4 (github.com/erincatto/box2d, tag
# v2.4.2, src/ unchanged) with adcc++: the derivatives of a body's final
# position and angle after N steps with respect to its initial velocity and
# the gravity, in five scenes (free flight against the exact values,
# sliding, bouncing, stacked and tumbling boxes); reverse mode against
# forward mode and central differences of the float simulation
# (docs/testing.md, "Real programs"). Box2D's files compiled on their own as
# its CMake build does, the derivatives of their functions made at link
# time. Not part of ctest: Box2D is not in this repository.
#
#   scripts/realcode/box2d.sh BOX2D_DIR [ADCC_CXX] [OPT] [STEPS]
#
# ADCC_CXX defaults to build/bin/adcc++; OPT to -O2; STEPS to 60. Exit
# status 0 when every check passes. (On 2026-12-06 Box2D links at -O0 to
# -O3; at 60 steps forward and reverse mode agree, and six checks against
# the differences miss where their step crosses a contact event:
# docs/testing.md.)
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/include/box2d/b2_world.h ]]; then
  echo "usage: ${0##*/} BOX2D_DIR [ADCC_CXX] [OPT] [STEPS]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
steps=${4:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt" -std=c++11 -I"$src/include" -I"$src/src")
for f in "$src"/src/*/*.cpp; do
  "$cxx" "${flags[@]}" -c "$f" -o "$work/$(basename "${f%.cpp}").o"
done
"$cxx" "${flags[@]}" "$here/box2d_gradient.cc" "$work"/*.o \
  -o "$work/box2d_gradient"
"$work/box2d_gradient" "$steps"
