#!/usr/bin/env bash
# boost.sh: differentiate Boost's own code (the installed headers,
# unchanged) with adcc++: odeint's adaptive steppers (controlled and
# dense-output Dormand-Prince 5, controlled Cash-Karp 5(4) and
# Runge-Kutta-Fehlberg 7(8), RK4 at a constant step) on a forced pendulum,
# and Boost.Math's special functions; reverse mode against central
# differences and analytic derivatives, forward mode against reverse
# (docs/testing.md, "Real programs"). Not part of ctest: it takes minutes
# to compile.
#
#   scripts/realcode/boost.sh [BOOST_INCLUDE] [ADCC_CXX] [OPT]
#
# BOOST_INCLUDE holds boost/ (default: Debian's /usr/include, libboost-dev).
# ADCC_CXX defaults to build/bin/adcc++; OPT to -O2. Exit status 0 when every
# check passes.
set -euo pipefail
inc=${1:-/usr/include}
if [[ ! -f $inc/boost/numeric/odeint.hpp ]]; then
  echo "usage: ${0##*/} [BOOST_INCLUDE] [ADCC_CXX] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=("$opt")
# (Not the default directory itself: -isystem /usr/include would reorder
# libstdc++'s #include_next.)
[[ $inc -ef /usr/include ]] || flags+=(-isystem "$inc")
"$cxx" "${flags[@]}" "$here/boost_gradient.cc" -o "$work/boost_gradient"
status=0
for part in odeint math; do
  "$work/boost_gradient" $part | tail -1 || status=1
done
exit $status
