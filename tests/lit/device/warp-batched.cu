// Batched forward mode (enzyme_width > 1) of a warp shuffle: each
// direction's tangent is shuffled as the value is (it was a located error
// until 2026-12-06). The value and each of the two tangents, a double
// each, are shuffled as two 32-bit halves: 6 shuffles at -O2; no rule
// function left at -O0 either (the header's shuffles are calls there).
// Numerically, against width 1, on an emulated warp:
// device/warp-emulated.cu.
// REQUIRES: cuda
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O2 -S %s -o - -Wno-unknown-cuda-version | FileCheck %s
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=O0
// O0-NOT: adcc.warp
// O0: .entry tangents
// O0-NOT: adcc.warp
// CHECK-LABEL: .entry tangents
// CHECK-COUNT-6: shfl.sync.idx.b32
// CHECK-NOT: shfl.sync
// CHECK-NOT: adcc.warp
// CHECK: ret;
extern __device__ int enzyme_width;
typedef struct {
  double d[2];
} w2;
extern __device__ w2 __enzyme_fwddiff(void *, ...);

__device__ double rotate(double x) {
  return __shfl_sync(0xffffffffu, x * x, (threadIdx.x + 1) % 32);
}

extern "C" __global__ void tangents(const double *x, double *d0, double *d1) {
  w2 r = __enzyme_fwddiff((void *)rotate, enzyme_width, 2, x[threadIdx.x],
                          1.0, 2.0);
  d0[threadIdx.x] = r.d[0];
  d1[threadIdx.x] = r.d[1];
}
