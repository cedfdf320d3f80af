// ADCC_REVERSE and ADCC_FORWARD on __device__ functions, called from a
// kernel; split mode in device code is a located error (its tape outlives
// the call: no frame can hold it).
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_90 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_80 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s < %t/o0.ptx
// RUN: FileCheck %s < %t/o2.ptx
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version -DSPLIT 2>&1 | FileCheck %s --check-prefix=SPLIT
// CHECK-NOT: adcc_
// CHECK: .entry {{.*}}kernel
#include <adcc.h>

ADCC_REVERSE(d_f, Duplicated, Active, Active)
__device__ double f(const double *x, double k);
__device__ double f(const double *x, double k) { return sin(x[0]) * k; }

ADCC_FORWARD(t_g, Dual, DualOnly)
__device__ double g(double x);
__device__ double g(double x) { return exp(x) * x; }

__global__ void kernel(double *x, double *dx, double *out) {
  out[0] = d_f(x, dx, 2.0, 1.0).d_k;
  out[1] = t_g(x[1], 1.0);
}

#ifdef SPLIT
extern __device__ void *__enzyme_augmentfwd(void *, ...);
extern __device__ void __enzyme_reverse(void *, ...);
__device__ double h(double *x) { return x[0] * x[0]; }
__global__ void split(double *x, double *dx) {
  // SPLIT: attributes.cu:[[@LINE+1]]:13: error: tape of unknown size in device code: the two sweeps do not run in one function here
  void *t = __enzyme_augmentfwd((void *)h, x, dx);
  __enzyme_reverse((void *)h, x, dx, 1.0, t);
}
#endif
