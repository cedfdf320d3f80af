// Functions of one warp with shuffles and a __shared__ array, and their
// value, tangent and gradient kernels (extern "C", launched <<<1, 32>>>):
// checked on a host model of a warp (tests/lit/device/warp-emulated.cu)
// and on a GPU (gpu_warps.cu), by warp_check.h. For f here, with
// y_l = f(x_l) on lane l and L = sum_l y_l: F_values gives y,
// F_tangents the tangents t_l in the direction dx, F_gradients dL/dx,
// F_tangents2 the tangents in two directions at once (enzyme_width 2),
// F_gradients2 the gradients of sum_l s_l y_l and sum_l s2_l y_l at once.
#ifndef ADCC_TESTS_WARP_FUNCTIONS_H
#define ADCC_TESTS_WARP_FUNCTIONS_H

// X(function, its type, D or F: the entry points of doubles or floats)
#define WARP_FUNCTIONS(X)                                                      \
  X(down_tree, double, D) X(butterfly, double, D) X(up_scan, double, D)        \
  X(up_kept, double, D) X(segments, double, D) X(broadcast, double, D)         \
  X(gather, double, D) X(float_xor, float, F) X(raw_float, float, F)          \
  X(shared_ring, double, D) X(log_gamma, double, D) X(gamma, double, D)

#ifdef __CUDACC__
extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ float __enzyme_fwddiff_f(void *, ...) asm("__enzyme_fwddiff");
extern __device__ int enzyme_width;
// Batched forward mode, two directions: the tangents come back together.
struct TwoD {
  double d[2];
};
struct TwoF {
  float d[2];
};
extern __device__ TwoD __enzyme_fwddiff_2d(void *, ...) asm("__enzyme_fwddiff");
extern __device__ TwoF __enzyme_fwddiff_2f(void *, ...) asm("__enzyme_fwddiff");
extern __device__ int enzyme_dup;
extern __device__ void __enzyme_autodiff_v(void *, ...) asm("__enzyme_autodiff");
extern __device__ float __enzyme_autodiff_f(void *, ...) asm("__enzyme_autodiff");

const unsigned full = 0xffffffffu;

// The classic tree: lane 0 gets the sum of the squares; the other lanes
// partial sums (and, past the warp's end, their own values).
__device__ double down_tree(double x) {
  double v = x * x;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(full, v, o);
  return v;
}

// Every lane gets the product-weighted sum.
__device__ double butterfly(double x) {
  double v = x * (1 + 0.1 * threadIdx.x);
  for (int o = 1; o < 32; o *= 2)
    v += __shfl_xor_sync(full, v, o);
  return v * x;
}

// An inclusive scan: the lanes below the delta add nothing.
__device__ double up_scan(double x) {
  double v = x * x * x;
  for (int o = 1; o < 32; o *= 2) {
    double y = __shfl_up_sync(full, v, o);
    if (threadIdx.x >= o)
      v += y;
  }
  return v;
}

// The lanes below the delta keep their own value and use it.
__device__ double up_kept(double x) {
  double y = __shfl_up_sync(full, x * x, 3);
  return y * x;
}

// Segments of 8 lanes: the last lanes of each keep their own values.
__device__ double segments(double x) {
  double v = __shfl_down_sync(full, x * x, 3, 8);
  v += __shfl_xor_sync(full, v * x, 5, 8);
  return v * x + __shfl_sync(full, x, 6, 8);
}

// The value of lane 5 to all.
__device__ double broadcast(double x) {
  double s = __shfl_sync(full, x * x, 5);
  return s * x;
}

// Several lanes read one (lane / 2), a lane-dependent source.
__device__ double gather(double x) {
  double v = __shfl_sync(full, x * x * x, threadIdx.x / 2);
  double w = __shfl_sync(full, v, (threadIdx.x * 7 + 3) % 32);
  return v * w + x;
}

__device__ float float_xor(float x) {
  float v = x * x;
  v += __shfl_xor_sync(full, v, 16);
  v += __shfl_down_sync(full, v * x, 1);
  return v;
}

// The raw NVVM builtins of a float, PTX's c operand given: down by 2 in
// segments of 16 lanes (c = (32 - 16) << 8 | 31), up by 1 (c = 0), xor by
// 4, and lane 3 of each segment of 8 lanes to all of it.
__device__ float raw_float(float x) {
  float v = __nvvm_shfl_sync_down_f32(full, x * x, 2, (16 << 8) | 31);
  v += __nvvm_shfl_sync_up_f32(full, v * x, 1, 0);
  v *= __nvvm_shfl_sync_bfly_f32(full, v, 4, 31);
  return v + __nvvm_shfl_sync_idx_f32(full, x, 3, (24 << 8) | 31) * x;
}

// A __shared__ array named by the function, in reverse mode: its shadow
// is zeroed by the block; each thread reads its neighbour's slot.
__shared__ double ring[32];
__device__ double shared_ring(double x) {
  ring[threadIdx.x] = x * x;
  __syncthreads();
  double r = ring[(threadIdx.x + 1) % 32] * x;
  __syncthreads();
  ring[threadIdx.x] = r;
  __syncthreads();
  return ring[(threadIdx.x + 31) % 32] + r;
}

// lgamma and tgamma in reverse mode: their derivatives' digamma is the
// module's own in device code. Arguments below 0 (reflection), between
// 0 and 10 (recurrence) and above 10 (the asymptotic series).
__device__ double log_gamma(double x) {
  return lgamma(x + 2.3) * x + lgamma(-0.6 - 0.3 * x) + lgamma(12 + x);
}

__device__ double gamma(double x) {
  return tgamma(1.2 + x) + tgamma(-0.6 - 0.3 * x) * x;
}

#define FWD_D __enzyme_fwddiff
#define FWD_F __enzyme_fwddiff_f
#define REV_D __enzyme_autodiff
#define REV_F __enzyme_autodiff_f
#define FWD2_D __enzyme_fwddiff_2d
#define FWD2_F __enzyme_fwddiff_2f
#define KERNELS(F, T, E)                                                       \
  extern "C" __global__ void F##_values(const T *x, T *y) {                    \
    y[threadIdx.x] = F(x[threadIdx.x]);                                        \
  }                                                                            \
  extern "C" __global__ void F##_tangents(const T *x, const T *dx, T *t) {     \
    t[threadIdx.x] = FWD_##E((void *)F, x[threadIdx.x], dx[threadIdx.x]);      \
  }                                                                            \
  extern "C" __global__ void F##_gradients(const T *x, T *g) {                 \
    g[threadIdx.x] = REV_##E((void *)F, x[threadIdx.x]);                       \
  }                                                                            \
  extern "C" __global__ void F##_tangents2(const T *x, const T *dx,            \
                                           const T *dx2, T *t, T *t2) {        \
    auto R = FWD2_##E((void *)F, enzyme_width, 2, x[threadIdx.x],              \
                      dx[threadIdx.x], dx2[threadIdx.x]);                      \
    t[threadIdx.x] = R.d[0];                                                   \
    t2[threadIdx.x] = R.d[1];                                                  \
  }                                                                            \
  __device__ void F##_store(const T *x, T *y) { *y = F(*x); }                  \
  extern "C" __global__ void F##_gradients2(const T *x, const T *s,            \
                                            const T *s2, T *g, T *g2) {        \
    T xl = x[threadIdx.x], y, dx0 = 0, dx1 = 0;                                \
    T dy0 = s[threadIdx.x], dy1 = s2[threadIdx.x];                             \
    __enzyme_autodiff_v((void *)F##_store, enzyme_width, 2, enzyme_dup, &xl,   \
                        &dx0, &dx1, enzyme_dup, &y, &dy0, &dy1);               \
    g[threadIdx.x] = dx0;                                                      \
    g2[threadIdx.x] = dx1;                                                     \
  }
WARP_FUNCTIONS(KERNELS)

#endif // __CUDACC__

#endif // ADCC_TESTS_WARP_FUNCTIONS_H
