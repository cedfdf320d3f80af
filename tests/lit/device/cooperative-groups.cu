// Cooperative groups' grid group (cg::this_grid(), grid.sync()) in code
// differentiated in device code: CUDA 12 and 13 implement it in inline
// assembly in <cooperative_groups.h>; the error names it and points at the
// program's line that calls it, not into the header (before 2026-12-06:
// "inline assembly is not supported" at driver_abi.h), at -O0 (the
// header's functions not inlined) and -O2. The host side (a cooperative
// launch in differentiated host code) is lit errors/cuda-launch.cu.
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 -I%cuda_path/include/cccl --cuda-device-only -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -I%cuda_path/include/cccl --cuda-device-only -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern __device__ void __enzyme_autodiff(void *, ...);

__device__ void step(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] * x[i];
  // CHECK: cooperative-groups.cu:[[#@LINE+1]]:3: error: cannot differentiate 'step(double const*, double*, int)' in device code: cooperative groups' grid group (cg::this_grid(), grid.sync(): inline assembly in <cooperative_groups.h>; grid-wide synchronization has no derivative in adcc) is not supported
  cg::this_grid().sync();
  y[i] += y[(i + 1) % n];
}
// CHECK-NOT: error:

__global__ void gradient(const double *x, double *dx, double *y, double *dy,
                         int n) {
  __enzyme_autodiff((void *)step, x, dx, y, dy, n);
}
