// Batched forward mode (enzyme_width > 1) of a warp shuffle has no rule
// yet: a located error that names the shuffle the program calls (it named
// adcc's internal rule function, 'adcc.warp.fwd._Z11__shfl_syncjdii',
// until 2026-12-06). Width 1 of the same function compiles.
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O2 -S -DWIDTH1 %s -o /dev/null -Wno-unknown-cuda-version
// CHECK-NOT: adcc.warp
extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ int enzyme_width;
typedef struct {
  double d[2];
} w2;
extern __device__ w2 __enzyme_fwddiff_w2(void *, ...);

__device__ double rotate(double x) {
  // CHECK: warp-batched-error.cu:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'rotate(double)' in forward mode: the warp shuffle '__shfl_sync(unsigned int, double, int, int)' has no batched (width > 1) derivative yet; differentiate it one direction at a time (enzyme_width 1)
  return __shfl_sync(0xffffffffu, x * x, (threadIdx.x + 1) % 32);
}

__global__ void tangents(const double *x, double *d0, double *d1) {
#ifdef WIDTH1
  d0[threadIdx.x] = __enzyme_fwddiff((void *)rotate, x[threadIdx.x], 1.0);
#else
  w2 r = __enzyme_fwddiff_w2((void *)rotate, enzyme_width, 2, x[threadIdx.x],
                             1.0, 2.0);
  d0[threadIdx.x] = r.d[0];
  d1[threadIdx.x] = r.d[1];
#endif
}
