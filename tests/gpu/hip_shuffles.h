// Stand-ins for HIP's warp shuffles, for device code built without ROCm's
// headers (-x hip -nogpuinc): the functions of HIP's header with its names
// and signatures (`float __shfl_down(float, unsigned int, int)`, ...) and
// its documented semantics, written here. Lane l of a segment of `width`
// lanes reads: __shfl, lane `src` of its segment; __shfl_up, l - delta;
// __shfl_down, l + delta; __shfl_xor, l ^ mask; its own value where that
// lane is outside its segment. Values move with ds_bpermute, a double as
// two 32-bit halves, as HIP's header does.
#ifndef ADCC_TESTS_HIP_SHUFFLES_H
#define ADCC_TESTS_HIP_SHUFFLES_H

#ifndef __device__
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#endif

static constexpr int warpSize = 64;

__device__ inline int hip_lane() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}

// The bits of lane `from` (ds_bpermute addresses lanes in bytes).
__device__ inline int hip_read_lane(int from, int bits) {
  return __builtin_amdgcn_ds_bpermute(from * 4, bits);
}

__device__ inline int __shfl(int v, int src, int width = warpSize) {
  int me = hip_lane();
  return hip_read_lane((me & -width) + (src & (width - 1)), v);
}
__device__ inline int __shfl_up(int v, unsigned int delta,
                                int width = warpSize) {
  int me = hip_lane();
  int from = me - (int)delta;
  return hip_read_lane(from < (me & -width) ? me : from, v);
}
__device__ inline int __shfl_down(int v, unsigned int delta,
                                  int width = warpSize) {
  int me = hip_lane();
  int within = (me & (width - 1)) + (int)delta;
  return hip_read_lane(within >= width ? me : me + (int)delta, v);
}
__device__ inline int __shfl_xor(int v, int mask, int width = warpSize) {
  int me = hip_lane();
  int from = me ^ mask;
  return hip_read_lane((from & -width) != (me & -width) ? me : from, v);
}

// A float as its bits; a double as two halves.
#define HIP_FLOAT_SHUFFLES(NAME, ARG)                                          \
  __device__ inline float NAME(float v, ARG b, int width = warpSize) {         \
    return __builtin_bit_cast(float,                                           \
                              NAME(__builtin_bit_cast(int, v), b, width));     \
  }                                                                            \
  __device__ inline double NAME(double v, ARG b, int width = warpSize) {       \
    long long bits = __builtin_bit_cast(long long, v);                         \
    unsigned lo = NAME((int)bits, b, width);                                   \
    unsigned hi = NAME((int)(bits >> 32), b, width);                           \
    return __builtin_bit_cast(double,                                          \
                              (unsigned long long)hi << 32 | lo);              \
  }
HIP_FLOAT_SHUFFLES(__shfl, int)
HIP_FLOAT_SHUFFLES(__shfl_up, unsigned int)
HIP_FLOAT_SHUFFLES(__shfl_down, unsigned int)
HIP_FLOAT_SHUFFLES(__shfl_xor, int)
#undef HIP_FLOAT_SHUFFLES

#endif // ADCC_TESTS_HIP_SHUFFLES_H
