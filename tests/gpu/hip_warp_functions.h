// Functions of one AMDGPU wavefront (64 lanes) with HIP's shuffles (here
// the stand-ins of hip_shuffles.h), tapes of run-time size (a loop, a
// recursion; rational, without the device libraries), and their value, tangent and gradient
// kernels (extern "C", one work-group of 64): checked on a host model of a
// wavefront (tests/lit/device/hip-warp-emulated.cpp) by warp_check.h.
// For f here, with y_l = f(x_l) on lane l and L = sum_l y_l: F_values
// gives y, F_tangents the tangents in the direction dx, F_gradients dL/dx.
#ifndef ADCC_TESTS_HIP_WARP_FUNCTIONS_H
#define ADCC_TESTS_HIP_WARP_FUNCTIONS_H

// X(function, its type, D or F: the entry points of doubles or floats)
#define HIP_WARP_FUNCTIONS(X)                                                  \
  X(hip_down_tree, double, D) X(hip_butterfly, float, F)                       \
  X(hip_up_scan, double, D) X(hip_segments, double, D)                         \
  X(hip_broadcast, double, D) X(hip_gather, double, D)                        \
  X(hip_run_time_loop, double, D) X(hip_recursion, double, D)

#ifdef __HIP__
#include "hip_shuffles.h"

extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ float __enzyme_fwddiff_f(void *, ...) asm("__enzyme_fwddiff");
extern __device__ float __enzyme_autodiff_f(void *, ...) asm("__enzyme_autodiff");

__device__ inline unsigned hip_item() {
  return __builtin_amdgcn_workitem_id_x();
}

// The tree of the wavefront: lane 0 gets the sum of the squares; lanes
// past the end of the wavefront keep their own values.
__device__ double hip_down_tree(double x) {
  double v = x * x;
  for (int o = 32; o > 0; o /= 2)
    v += __shfl_down(v, o);
  return v;
}

// A float's butterfly, weighted by the lane.
__device__ float hip_butterfly(float x) {
  float v = x * (1 + 0.05f * hip_item());
  for (int o = 1; o < 64; o *= 2)
    v += __shfl_xor(v, o);
  return v * x;
}

// An inclusive scan: the lanes below the delta add nothing (and read
// their own value).
__device__ double hip_up_scan(double x) {
  double v = x * x * x;
  for (int o = 1; o < 64; o *= 2) {
    double y = __shfl_up(v, o);
    if (hip_item() >= (unsigned)o)
      v += y;
  }
  return v;
}

// Segments: down by 3 in 16 lanes (the last 3 keep their own), xor by 5 in
// 8, lane 6 of each segment of 16 to all of it.
__device__ double hip_segments(double x) {
  double v = __shfl_down(x * x, 3, 16);
  v += __shfl_xor(v * x, 5, 8);
  return v * x + __shfl(x, 6, 16);
}

// The value of lane 37 to all.
__device__ double hip_broadcast(double x) {
  double s = __shfl(x * x, 37);
  return s * x;
}

// Several lanes read one (lane / 2), then a lane-dependent source.
__device__ double hip_gather(double x) {
  double v = __shfl(x * x * x, (int)hip_item() / 2);
  double w = __shfl(v, (int)(hip_item() * 7 + 3) % 64);
  return v * w + x;
}

// A loop whose trip count is known at run time (each lane its own): its
// records go to the reserve in the work-item's private memory.
__device__ double hip_run_time_loop(double x) {
  int n = 1 + hip_item() % 13;
  double s = x;
  for (int k = 0; k < n; ++k)
    s = 0.9 * s * x / (1 + s * s) + 0.2;
  return s;
}

// Recursion, each lane to its own depth: the two sweeps share one tape in
// the gradient's frame.
__device__ double hip_nest(double x, int n) {
  if (n <= 0)
    return x;
  double r = hip_nest(x, n - 1);
  return r * x / (1 + r * r) + 0.1;
}
__device__ double hip_recursion(double x) {
  return hip_nest(x, 2 + hip_item() % 9);
}

#define HIP_FWD_D __enzyme_fwddiff
#define HIP_FWD_F __enzyme_fwddiff_f
#define HIP_REV_D __enzyme_autodiff
#define HIP_REV_F __enzyme_autodiff_f
#define HIP_KERNELS(F, T, E)                                                   \
  extern "C" __global__ void F##_values(const T *x, T *y) {                    \
    y[hip_item()] = F(x[hip_item()]);                                          \
  }                                                                            \
  extern "C" __global__ void F##_tangents(const T *x, const T *dx, T *t) {     \
    t[hip_item()] = HIP_FWD_##E((void *)F, x[hip_item()], dx[hip_item()]);    \
  }                                                                            \
  extern "C" __global__ void F##_gradients(const T *x, T *g) {                 \
    g[hip_item()] = HIP_REV_##E((void *)F, x[hip_item()]);                     \
  }
HIP_WARP_FUNCTIONS(HIP_KERNELS)

#endif // __HIP__

#endif // ADCC_TESTS_HIP_WARP_FUNCTIONS_H
