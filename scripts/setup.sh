#!/usr/bin/env bash
# Installs the Debian 12 packages adcc needs to build and test. Idempotent:
# when everything is present it prints nothing and exits 0.
#   scripts/setup.sh            build + test dependencies
#   scripts/setup.sh --check    list missing packages, install nothing
set -euo pipefail

packages=(
  # build
  cmake ninja-build g++ ccache binutils
  llvm-22-dev libclang-cpp22-dev libclang-22-dev clang-22 lld-22
  libcli11-dev libspdlog-dev libfmt-dev
  # tests: lit, FileCheck, not, split-file; Catch2 v2; csmith; Eigen 3;
  # Boost (Odeint)
  llvm-22-tools python3 catch2 csmith libcsmith-dev make libeigen3-dev
  libboost-dev
  # tests of --rtlib=compiler-rt and of CUDA links (clang-linker-wrapper)
  libclang-rt-22-dev clang-tools-22
  # OpenMP in differentiated code (tests/e2e/omp_loops.c, -fopenmp)
  libomp-22-dev
  # build-system tests (tests/integration/meson.sh, bear.sh, autoconf.sh)
  meson bear autoconf
  # MPI derivatives (tests/mpi) and builds under distcc (tests/integration)
  libopenmpi-dev openmpi-bin distcc
  # BLAS derivatives (tests/e2e/blas_*.c link -lblas; LAPACK's refusals)
  libblas-dev liblapack-dev
  # benchmarks: bench/run draws its chart with gnuplot
  gnuplot-nox
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [[ $status == installed ]] || missing+=("$p")
done

if [[ ${1:-} == --check ]]; then
  printf '%s\n' "${missing[@]}"
  exit 0
fi
((${#missing[@]} == 0)) && exit 0

sudo=()
[[ $(id -u) -ne 0 ]] && sudo=(sudo)
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" \
  >/dev/null
