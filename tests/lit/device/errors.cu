// Device code adcc cannot differentiate: located errors, exit status 1.
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ double __enzyme_fwddiff(void *, ...);

__device__ double asmf(double x) {
  double r;
  // CHECK: errors.cu:[[@LINE+1]]:3: error: cannot differentiate 'asmf(double)' in device code: inline assembly is not supported
  asm("mul.f64 %0, %1, %1;" : "=d"(r) : "d"(x));
  return r;
}

__device__ double exchange(double *s, double x) {
  s[threadIdx.x] = x * x;
  // CHECK: errors.cu:[[@LINE+1]]:3: error: cannot differentiate 'exchange(double*, double)' in device code: a barrier (__syncthreads()) in reverse mode is not supported yet
  __syncthreads();
  return s[(threadIdx.x + 1) % 32];
}

__global__ void k1(double *x) { x[0] = __enzyme_autodiff((void *)asmf, x[1]); }

__global__ void k2(double *x, double *dx) {
  __shared__ double s[32], ds[32];
  dx[0] = __enzyme_autodiff((void *)exchange, s, ds, x[1]);
}

// Forward mode keeps the barrier: no error.
__global__ void k3(double *x, double *dx) {
  __shared__ double s[32], ds[32];
  dx[0] = __enzyme_fwddiff((void *)exchange, s, ds, x[1], 1.0);
}
