#!/usr/bin/env bash
# Runs the GPU numerical tests: each .cu file here (and
# tests/e2e/kernels_cuda.cu, kernels_cuda_loops.cu) is compiled by adcc++
# for the GPU of this machine (host and device code, linked with the CUDA
# runtime) and run. Without a GPU (nvidia-smi missing or failing) or
# without the CUDA toolkit, prints why and exits 77 (skipped).
#   run-gpu-tests.sh [ADCCXX]        (default: adcc++ on PATH)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
adccxx=${1:-${ADCCXX:-adcc++}}
cuda=${CUDA_PATH:-/usr/local/cuda}
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi >/dev/null 2>&1; then
  echo "no GPU (nvidia-smi missing or failing): GPU numerical tests not run"
  exit 77
fi
if [[ ! -x $cuda/bin/ptxas ]]; then
  echo "no CUDA toolkit at $cuda: GPU numerical tests not run"
  exit 77
fi
arch=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
# (and the kernel launches' test: the derivatives of launches on
# adcc::cuda against adcc::cpu)
for src in "$here"/*.cu "$here"/../e2e/kernels_cuda.cu \
  "$here"/../e2e/kernels_cuda_loops.cu; do
  name=$(basename "${src%.cu}")
  levels=(-O0 -O2)
  # (Their functions are located errors at -O0: lit
  # device/null-shadow-calls.c, device/null-shadow-aliases.c.)
  [[ $name == gpu_null_shadows || $name == gpu_null_aliases ]] &&
    levels=(-O1 -O2)
  for level in "${levels[@]}"; do
    echo "+ $adccxx -x cuda --cuda-gpu-arch=$arch $level $src"
    "$adccxx" -x cuda --cuda-path="$cuda" --cuda-gpu-arch="$arch" $level \
      -std=c++17 -Wno-unknown-cuda-version "$src" -o "$work/$name$level" \
      -L"$cuda/lib64" -lcudart -Wl,-rpath,"$cuda/lib64"
    if "$work/$name$level"; then
      echo "PASS: $name $level"
    else
      echo "FAIL: $name $level"
      status=1
    fi
  done
done
exit $status
