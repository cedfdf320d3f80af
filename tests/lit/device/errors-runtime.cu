// A derivative that would need adcc's host runtime is a located error in
// device code, never a call of the runtime: the adjoint of a copy of
// floating-point memory of unknown length.
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// CHECK: error: the adjoint of a copy of floating-point memory (memcpy or memmove) is not supported yet in device code: it calls adcc's host runtime ('adcc_adjoint_copy
extern __device__ void __enzyme_autodiff(void *, ...);

__device__ void f(double *a, const double *b, int n) {
  memcpy(a, b, n * sizeof(double));
  a[0] *= a[1];
}

__global__ void k(double *a, double *da, double *b, double *db, int n) {
  __enzyme_autodiff((void *)f, a, da, b, db, n);
}
