// A combined gradient whose reverse sweep needs records of a loop whose
// trip count is not known at compile time: the tape in its frame has no
// size, a located error at the record, in the loop (a kernel launch or
// split mode with a tape slot takes it: split-slots-unknown.cu).
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
extern __device__ void __enzyme_autodiff(void *, ...);

__device__ double prod(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    // CHECK: errors-tape.cu:[[@LINE+1]]:7: error: tape of unknown size in device code
    s *= sin(x[i]);
  return s;
}

__global__ void k(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)prod, x, dx, n);
}
