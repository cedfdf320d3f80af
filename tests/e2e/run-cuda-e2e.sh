#!/usr/bin/env bash
# Compiles one CUDA end-to-end program (-x cuda, sm_80 and sm_90 device
# code, linked with the CUDA runtime) with adcc++ at one optimization level
# and runs it. Skipped (exit 77, with the reason) without the CUDA toolkit;
# the program itself exits 77 where no GPU is present.
#   run-cuda-e2e.sh SOURCE LEVEL      (ADCCXX and CUDA_PATH from the environment)
set -euo pipefail
src=$1
level=$2
cuda=${CUDA_PATH:-/usr/local/cuda}
if [[ ! -e $cuda/lib64/libcudart.so ]]; then
  echo "skipped: no CUDA toolkit at $cuda"
  exit 77
fi
out="$PWD/$(basename "${src%.*}")${level}"
echo "+ ${ADCCXX:?} $level -x cuda $src -o $out"
"$ADCCXX" "$level" -std=c++17 -Wall -Werror -Wno-unknown-cuda-version \
  -x cuda --cuda-path="$cuda" --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 \
  "$src" -o "$out" -L"$cuda/lib64" -lcudart -Wl,-rpath,"$cuda/lib64" -lm
status=0
output=$("$out") || status=$?
echo "$output"
[[ $status == 77 ]] && exit 77
[[ $status == 0 && $(tail -n 1 <<<"$output") == *ok ]] || {
  echo "FAIL: $src at $level (status $status)" >&2
  exit 1
}
