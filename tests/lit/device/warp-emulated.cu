// Derivatives of warp shuffles and of a __shared__ array in reverse mode,
// checked numerically without a GPU: the device IR that adcc makes
// (-O0 and -O2) is rewritten for the host (Inputs/warp_host_ir.py) and run
// on a host model of one warp (Inputs/warp_emulation.h: 32 threads, PTX's
// shuffle semantics, __syncthreads() a barrier). For each function f of
// this file, with y_l = f(x_l) on lane l and L = sum_l y_l: the gradient
// kernel's dL/dx_j against central differences of the value kernel, and
// against the tangent kernel (sum over l of t_l with direction e_j).
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S -emit-llvm %s -o %t/o0.ll -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o %t/o2.ll -Wno-unknown-cuda-version
// RUN: %python %S/Inputs/warp_host_ir.py %t/o0.ll %host-triple > %t/h0.ll
// RUN: %python %S/Inputs/warp_host_ir.py %t/o2.ll %host-triple > %t/h2.ll
// RUN: %clang -O0 -c %t/h0.ll -o %t/h0.o
// RUN: %clang -O0 -c %t/h2.ll -o %t/h2.o
// RUN: %clang++ -std=c++20 -O1 -DHOST_HARNESS -I%S/Inputs -x c++ %s -x none %t/h0.o -o %t/run0 -lpthread
// RUN: %clang++ -std=c++20 -O1 -DHOST_HARNESS -I%S/Inputs -x c++ %s -x none %t/h2.o -o %t/run2 -lpthread
// RUN: %t/run0 | FileCheck %s
// RUN: %t/run2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: down_tree: ok
// CHECK: butterfly: ok
// CHECK: up_scan: ok
// CHECK: up_kept: ok
// CHECK: segments: ok
// CHECK: broadcast: ok
// CHECK: gather: ok
// CHECK: float_xor: ok
// CHECK: shared_ring: ok
// CHECK: all ok

// X(function, type, forward entry point, reverse entry point)
#define WARP_FUNCTIONS(X)                                                      \
  X(down_tree, double, D) X(butterfly, double, D) X(up_scan, double, D)        \
  X(up_kept, double, D) X(segments, double, D) X(broadcast, double, D)         \
  X(gather, double, D) X(float_xor, float, F) X(shared_ring, double, D)

#ifndef HOST_HARNESS
extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ float __enzyme_fwddiff_f(void *, ...) asm("__enzyme_fwddiff");
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

#define FWD_D __enzyme_fwddiff
#define FWD_F __enzyme_fwddiff_f
#define REV_D __enzyme_autodiff
#define REV_F __enzyme_autodiff_f
#define KERNELS(F, T, E)                                                       \
  extern "C" __global__ void F##_values(const T *x, T *y) {                    \
    y[threadIdx.x] = F(x[threadIdx.x]);                                        \
  }                                                                            \
  extern "C" __global__ void F##_tangents(const T *x, const T *dx, T *t) {     \
    t[threadIdx.x] = FWD_##E((void *)F, x[threadIdx.x], dx[threadIdx.x]);      \
  }                                                                            \
  extern "C" __global__ void F##_gradients(const T *x, T *g) {                 \
    g[threadIdx.x] = REV_##E((void *)F, x[threadIdx.x]);                       \
  }
WARP_FUNCTIONS(KERNELS)

#else // HOST_HARNESS
#include "warp_emulation.h"

#include <cmath>

#define DECLARE(F, T, E)                                                        \
  extern "C" void F##_values(const T *, T *);                                  \
  extern "C" void F##_tangents(const T *, const T *, T *);                     \
  extern "C" void F##_gradients(const T *, T *);
WARP_FUNCTIONS(DECLARE)

template <class T> struct Kernels {
  void (*Values)(const T *, T *);
  void (*Tangents)(const T *, const T *, T *);
  void (*Gradients)(const T *, T *);
};

template <class T> T total(const Kernels<T> &K, const T *X) {
  T Y[32];
  warp_emulation::launch([&] { K.Values(X, Y); });
  T S = 0;
  for (T V : Y)
    S += V;
  return S;
}

static int Failures = 0;

template <class T> void check(const char *Name, const Kernels<T> &K) {
  const double Tol = sizeof(T) == 8 ? 1e-7 : 2e-3;
  const T H = sizeof(T) == 8 ? 1e-6 : 1e-2;
  T X[32], G[32];
  for (int L = 0; L < 32; ++L)
    X[L] = T(0.3 + 0.05 * L - 0.002 * L * L);
  warp_emulation::launch([&] { K.Gradients(X, G); });
  int Bad = 0;
  for (int J = 0; J < 32; ++J) {
    T Plus[32], Minus[32], E[32] = {}, Tan[32];
    for (int L = 0; L < 32; ++L)
      Plus[L] = Minus[L] = X[L];
    Plus[J] += H;
    Minus[J] -= H;
    double Fd = (double(total(K, Plus)) - double(total(K, Minus))) / (2 * H);
    E[J] = 1;
    warp_emulation::launch([&] { K.Tangents(X, E, Tan); });
    double Fwd = 0;
    for (T V : Tan)
      Fwd += V;
    double Scale = std::fmax(1.0, std::fabs(Fd));
    if (std::fabs(G[J] - Fd) > Tol * Scale ||
        std::fabs(G[J] - Fwd) > Tol * Scale) {
      std::printf("FAIL %s: dL/dx[%d]: reverse %.12g, central differences "
                  "%.12g, forward %.12g\n",
                  Name, J, double(G[J]), Fd, Fwd);
      ++Bad;
    }
  }
  Failures += Bad;
  if (!Bad)
    std::printf("%s: ok\n", Name);
}

int main() {
#define CHECK(F, T, E) check<T>(#F, {F##_values, F##_tangents, F##_gradients});
  WARP_FUNCTIONS(CHECK)
  if (Failures)
    return 1;
  std::puts("all ok");
}
#endif
