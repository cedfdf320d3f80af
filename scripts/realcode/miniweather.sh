#!/usr/bin/env bash
# miniweather.sh: differentiate three time steps of miniWeather
# (github.com/mrnorman/miniWeather, c/, unchanged) with adcc and check the
# gradient with respect to the initial state against central differences
# and forward mode (docs/testing.md, "Real programs"). Not part of ctest:
# miniWeather is not in this repository. Builds with OpenMPI's mpicxx
# (OMPI_CXX=adcc++); PnetCDF, which only its output uses, is replaced by
# stubs/pnetcdf.h.
#
#   scripts/realcode/miniweather.sh MINIWEATHER_DIR [ADCC_CXX] [OPT] [VARIANT]
#
# VARIANT: serial (default) or mpi_openmp. ADCC_CXX defaults to
# build/bin/adcc++; OPT to -O2. Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/c/miniWeather_serial.cpp ]]; then
  echo "usage: ${0##*/} MINIWEATHER_DIR [ADCC_CXX] [OPT] [VARIANT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/c" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
cxx=$(cd "$(dirname "$cxx")" && pwd)/$(basename "$cxx") # (absolute, for mpicxx)
opt=${3:--O2}
variant=${4:-serial}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
OMPI_CXX=$cxx mpicxx "$opt" -fopenmp -w -I"$src" -I"$here/stubs" \
  -D_NX=20 -D_NZ=10 -D_SIM_TIME=10 -D_OUT_FREQ=10 \
  -D_DATA_SPEC=DATA_SPEC_THERMAL \
  -DMW_SOURCE="\"miniWeather_$variant.cpp\"" \
  "$here/miniweather_gradient.cc" -o "$work/miniweather_gradient"
if [[ $variant == serial ]]; then
  "$work/miniweather_gradient" | grep -v '^nx_glob\|^dx,dz\|^dt:'
else
  OMP_NUM_THREADS=2 mpirun --oversubscribe -n 2 \
    "$work/miniweather_gradient" | grep -v '^nx_glob\|^dx,dz\|^dt:'
fi
