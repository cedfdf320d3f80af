#!/usr/bin/env bash
# Runs a CUDA program on the grid emulation, without a GPU: its device code
# as adcc makes it for the GPU (sm_80, at LEVEL: tape slots, atomic adjoint
# updates, mirrored barriers) rewritten for the host (nvptx_host_ir.py
# --grid), its host code compiled by adcc++ --cuda-host-only, linked with
# the emulated CUDA runtime (grid_emulation.cpp), then run. The program's
# last line must end in "ok". Skipped (exit 77, with the reason) without
# the CUDA toolkit (its headers and libdevice) or python3.
# With --hip first, the program is HIP code compiled for AMDGPU (gfx90a,
# without HIP's headers: -nogpuinc), its device code rewritten by
# amdgcn_host_ir.py --grid; no CUDA toolkit is needed.
#   run-emulated.sh [--hip] SOURCE LEVEL [COMPILER-FLAGS...]
#   (ADCCXX, and CLANG for the rewritten IR, from the environment)
set -euo pipefail
hip=
if [[ $1 == --hip ]]; then
  hip=1
  shift
fi
src=$1
level=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_PATH:-/usr/local/cuda}
if [[ -z $hip && ! -e $cuda/include/cuda_runtime.h ]]; then
  echo "skipped: no CUDA toolkit at $cuda"
  exit 77
fi
if ! command -v python3 >/dev/null; then
  echo "skipped: no python3"
  exit 77
fi
out="$PWD/$(basename "${src%.*}")${hip:+-hip}-emulated${level}"
mkdir -p "$out"
cxx=${ADCCXX:?}
# (EMULATE_PLAIN_ATOMICS=1: atomic adds made plain, a check of the check.)
if [[ -n $hip ]]; then
  flags=(-std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a "$@")
  rewrite=(amdgcn_host_ir.py --grid ${EMULATE_PLAIN_ATOMICS:+--plain-atomics})
else
  flags=(-std=c++17 -Wno-unknown-cuda-version -x cuda --cuda-path="$cuda"
         --cuda-gpu-arch=sm_80 "$@")
  rewrite=(nvptx_host_ir.py --grid ${EMULATE_PLAIN_ATOMICS:+--plain-atomics})
fi
echo "+ $cxx $level ${flags[*]} --cuda-device-only -S -emit-llvm $src"
"$cxx" "$level" "${flags[@]}" --cuda-device-only -S -emit-llvm "$src" \
  -o "$out/device.ll"
python3 "$here/${rewrite[0]}" "${rewrite[@]:1}" "$out/device.ll" \
  "$("$cxx" -print-target-triple)" >"$out/device-host.ll"
"${CLANG:-$cxx}" -O0 -Wno-override-module -c "$out/device-host.ll" \
  -o "$out/device-host.o"
"$cxx" "$level" "${flags[@]}" --cuda-host-only -c "$src" -o "$out/host.o"
# The emulated runtime is the same object for every program: with
# GRID_EMULATION_CACHE (a directory; ctest sets it) it is built once per
# compiler and source, written under a temporary name and renamed, so tests
# running at once never read half of it.
emulation=$out/emulation.o
if [[ -n ${GRID_EMULATION_CACHE:-} ]]; then
  compiler=$(realpath "$(command -v "$cxx")")
  key=$( (cat "$here"/grid_emulation.cpp "$here"/*.h
          stat -c '%n %s %Y' "$compiler") | cksum | cut -d' ' -f1)
  emulation=$GRID_EMULATION_CACHE/grid_emulation-$key.o
fi
if [[ ! -s $emulation ]]; then
  mkdir -p "$(dirname "$emulation")"
  "$cxx" -std=c++20 -O1 -c "$here/grid_emulation.cpp" -o "$emulation.$$"
  mv -f "$emulation.$$" "$emulation"
fi
# (HIP's host code names the device binary it would register: none here.)
fatbins=()
if [[ -n $hip ]]; then
  for sym in $(nm -u "$out/host.o" | awk '/__hip_fatbin/ {print $2}'); do
    fatbins+=("-Wl,--defsym=$sym=0")
  done
fi
"$cxx" "$out/host.o" "$out/device-host.o" "$emulation" \
  "${fatbins[@]}" -o "$out/run" -lpthread -lm
status=0
output=$("$out/run") || status=$?
echo "$output"
[[ $status == 0 && $(tail -n 1 <<<"$output") == *ok ]] || {
  echo "FAIL: $src on the grid emulation at $level (status $status)" >&2
  exit 1
}
