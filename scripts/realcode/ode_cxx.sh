#!/usr/bin/env bash
# ode_cxx.sh: differentiate acdemiralp/ode (github.com/acdemiralp/ode,
# header-only C++20 ODE solvers, unchanged) with adcc++: the gradient of a
# weighted final state of the Lorenz system with respect to its initial
# state and parameters, reverse mode against central differences and
# forward mode, for fixed-step forward Euler and RK4 and adaptive
# Dormand-Prince 5 under the I, PI and PID step-size controllers, the
# state an Eigen::Vector3d (libeigen3-dev) (docs/testing.md, "Real
# programs"). Not part of ctest: the library is not in this repository.
#
#   scripts/realcode/ode_cxx.sh ODE_DIR [ADCC_CXX] [OPT]
#
# ODE_DIR is the repository (its include/ holds ode/ode.hpp); Eigen's
# headers are looked for in $EIGEN_INCLUDE (default: Debian's). ADCC_CXX
# defaults to build/bin/adcc++; OPT to -O2. Exit status 0 when every check
# passes, the PID controller's build (-DODE_PID) included.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/include/ode/ode.hpp ]]; then
  echo "usage: ${0##*/} ODE_DIR [ADCC_CXX] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eigen=${EIGEN_INCLUDE:-/usr/include/eigen3}
flags=("$opt" -std=c++20 -I"$src/include" -isystem "$eigen")
"$cxx" "${flags[@]}" "$here/ode_cxx_gradient.cc" -o "$work/ode_cxx_gradient"
"$work/ode_cxx_gradient"
"$cxx" "${flags[@]}" -DODE_PID "$here/ode_cxx_gradient.cc" \
  -o "$work/ode_cxx_pid"
"$work/ode_cxx_pid" | tail -1
