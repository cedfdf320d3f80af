#!/usr/bin/env bash
# kalman.sh: differentiate mherb/kalman (github.com/mherb/kalman, header-only
# Kalman filters on Eigen 3, unchanged, with its example Robot1's models)
# with adcc++: the gradient of the final estimate and covariance of a
# tracked planar robot with respect to the initial estimate, the landmarks,
# the system noise and every measurement, for the extended, unscented,
# square-root extended and square-root unscented filters; reverse mode
# against central differences, forward mode against reverse
# (docs/testing.md, "Real programs"). Not part of ctest: the library is not
# in this repository.
#
#   scripts/realcode/kalman.sh KALMAN_DIR [ADCC_CXX] [OPT]
#
# KALMAN_DIR is the repository (include/kalman/, examples/Robot1/); Eigen's
# headers are looked for in $EIGEN_INCLUDE (default: Debian's). ADCC_CXX
# defaults to build/bin/adcc++; OPT to -O2. FILTERS (default "ekf ukf srekf
# srukf") names the filters built and checked: one alone compiles in a
# quarter of the time. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/include/kalman/ExtendedKalmanFilter.hpp ]]; then
  echo "usage: ${0##*/} KALMAN_DIR [ADCC_CXX] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
eigen=${EIGEN_INCLUDE:-/usr/include/eigen3}
filters=${FILTERS:-ekf ukf srekf srukf}
left_out=()
for filter in ekf ukf srekf srukf; do
  [[ " $filters " == *" $filter "* ]] ||
    left_out+=("-DKALMAN_NO_$(tr a-z A-Z <<<"$filter")")
done
"$cxx" "$opt" "${left_out[@]}" -std=c++17 -I"$src/include" \
  -I"$src/examples/Robot1" -isystem "$eigen" "$here/kalman_gradient.cc" \
  -o "$work/kalman_gradient"
status=0
for filter in $filters; do
  "$work/kalman_gradient" $filter | tail -1 || status=1
done
exit $status
