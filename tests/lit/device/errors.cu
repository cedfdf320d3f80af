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

__global__ void k1(double *x) { x[0] = __enzyme_autodiff((void *)asmf, x[1]); }

__device__ void launch();
__device__ double nested(double x) {
  // (At the launch inside CUDA's header, cudaLaunchDevice, inlined here.)
  // CHECK: error: cannot differentiate 'nested(double)' in device code: dynamic parallelism (a kernel launch in device code) is not supported
  cudaLaunchDevice((void *)launch, nullptr, dim3(1), dim3(1), 0, 0);
  return x * x;
}

__global__ void k2(double *x) { x[0] = __enzyme_autodiff((void *)nested, x[1]); }
