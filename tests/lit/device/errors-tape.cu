// A reverse sweep that needs records of a loop whose trip count is not
// known at compile time: the tape's size is unknown, a located error.
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
extern __device__ void __enzyme_autodiff(void *, ...);

__device__ double prod(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s *= sin(x[i]);
  return s;
}

__global__ void k(const double *x, double *dx, int n) {
  // (At -O2 the record is made where the gradient was inlined.)
  // CHECK: errors-tape.cu:[[@LINE+1]]:3: error: tape of unknown size in device code
  __enzyme_autodiff((void *)prod, x, dx, n);
}
