// A combined gradient of a recursive function in device code: its sweeps
// are separate functions, whose records cannot live in one frame; a
// located error with exit status 1 at -O0 and -O2 (loops of run-time trip
// count are taken: cuda-unknown-trips.cu).
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
extern __device__ double __enzyme_autodiff_scalar(void *, ...);

// CHECK: errors-tape.cu:{{1[0-9]}}:{{[0-9]+}}: error: tape of unknown size in device code: the two sweeps do not run in one function here (split mode without a tape slot, recursion
__device__ double r(double x, int n) {
  if (n <= 0)
    return x;
  return sin(r(x, n - 1)) * x;
}

__global__ void k(const double *x, double *dx, int n) {
  dx[0] = __enzyme_autodiff_scalar((void *)r, x[0], n);
}
