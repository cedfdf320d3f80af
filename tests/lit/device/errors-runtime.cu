// A derivative that needs adcc's host runtime (digamma, for lgamma's) is a
// located error in device code, never a call of the runtime.
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// (At lgamma's call of libdevice in CUDA's header, inlined here.)
// CHECK: error: the derivative of lgamma or tgamma (digamma) is not supported yet in device code: it calls adcc's host runtime ('adcc_digamma')
extern __device__ double __enzyme_autodiff(void *, ...);

__device__ double f(double x) { return lgamma(x); }

__global__ void k(double *x) { x[0] = __enzyme_autodiff((void *)f, x[1]); }
