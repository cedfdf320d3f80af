#!/usr/bin/env bash
# minimd.sh: differentiate miniMD's Lennard-Jones molecular dynamics
# (github.com/Mantevo/miniMD, target/ unchanged, built as its
# Makefile.openmpi does: OpenMP without offload, OpenMPI, one rank) with
# adcc: the potential energy's gradient against miniMD's forces, and a few
# time steps of its integrator against central differences and forward
# mode, at 1, 2 and 4 threads (docs/testing.md, "Real programs"). Not part
# of ctest: miniMD is not in this repository.
#
#   scripts/realcode/minimd.sh MINIMD_DIR [ADCC_CXX] [OPT]
#
# ADCC_CXX defaults to build/bin/adcc++; OPT to -O2. OpenMPI's mpicxx runs
# over adcc++. (MPI-Stubs/, its serial build, is not used: the stubs'
# MPI_Allreduce copies `void *` buffers of ints and doubles, refused in
# reverse mode, docs/status.md.) Exit status 0 when every check passes.
set -euo pipefail
if [[ $# -lt 1 || ! -f $1/target/integrate.cpp ]]; then
  echo "usage: ${0##*/} MINIMD_DIR [ADCC_CXX] [OPT]" >&2
  exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1/target" && pwd)
cxx=${2:-$here/../../build/bin/adcc++}
cxx=$(cd "$(dirname "$cxx")" && pwd)/$(basename "$cxx") # (absolute, for mpicxx)
opt=${3:--O2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Makefile.openmpi's flags (-mavx aside); each file compiled on its own,
# so the derivatives are made when adcc links.
export OMPI_CXX=$cxx
flags=("$opt" -fopenmp -DMPICH_IGNORE_CXX_SEEK -DNOCHUNK -DUSE_SIMD -w
  -I"$src")
objs=()
for f in input integrate atom force_lj neighbor thermo comm timer output \
  setup; do
  mpicxx "${flags[@]}" -c "$src/$f.cpp" -o "$work/$f.o"
  objs+=("$work/$f.o")
done
mpicxx "${flags[@]}" -c "$here/minimd_gradient.cc" -o "$work/minimd_gradient.o"
mpicxx "$opt" -fopenmp "$work/minimd_gradient.o" "${objs[@]}" \
  -o "$work/minimd_gradient"
status=0
for t in 1 2 4; do
  OMP_NUM_THREADS=$t "$work/minimd_gradient" || status=1
done
exit $status
