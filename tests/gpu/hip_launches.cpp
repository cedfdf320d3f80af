// HIP's own launches (k<<<grid, block>>>(args), hipLaunchKernel) in
// differentiated host code, the HIP form of gpu_launches.cu: a stencil
// whose threads read their neighbours and a scalar, a tree reduction in
// __shared__ memory (LDS) with barriers in a helper function, launched
// through hipLaunchKernel, and a wavefront's sum by HIP's shuffles
// (tests/gpu/hip_shuffles.h). The gradient against central differences, the tangent
// against the gradient. Compiled without HIP's headers (-nogpuinc: the
// declarations of <adcc/kernels.hpp>); runs on the grid emulation
// (run-emulated.sh --hip), or where HIP's runtime and a GPU are present.
#include <adcc/kernels.hpp>

#include "hip_shuffles.h"

#include <cmath>
#include <cstdio>

extern "C" {
hipError_t hipMallocManaged(void **, std::size_t, unsigned);
hipError_t hipLaunchCooperativeKernel(const void *, dim3, dim3, void **,
                                      unsigned, hipStream_t);
hipError_t hipGetDeviceCount(int *);
__device__ double __ocml_sin_f64(double);
}
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

constexpr int N = 256, Block = 64;

__device__ inline unsigned globalId() {
  return __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x() +
         __builtin_amdgcn_workitem_id_x();
}

// (A barrier in a function of its own, not inlined at -O0: the reverse
// kernel mirrors it too, prepare/BarrierCalls.cpp.)
__device__ inline void syncThreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// y[i] = a sin(x[i]) x[i-1] + x[i+1]^2 (neighbours clamped)
__global__ void stencil(double a, const double *x, double *y, int n) {
  int i = globalId();
  if (i >= n)
    return;
  double left = x[i > 0 ? i - 1 : 0], right = x[i + 1 < n ? i + 1 : n - 1];
  y[i] = a * __ocml_sin_f64(x[i]) * left + right * right;
}

// out[b] = c * sum over block b of y[i]^2 * y[i ^ 1]
__global__ void reduce(const double *y, double *out, double c) {
  __shared__ double s[Block];
  int t = __builtin_amdgcn_workitem_id_x(), i = globalId();
  s[t] = y[i] * y[i];
  syncThreads();
  double v = s[t] * y[i ^ 1];
  syncThreads();
  s[t] = v;
  syncThreads();
  for (int o = Block / 2; o > 0; o /= 2) {
    if (t < o)
      s[t] += s[t + o];
    syncThreads();
  }
  if (t == 0)
    out[__builtin_amdgcn_workgroup_id_x()] = c * s[0];
}

// w[b] = the sum over block b (one wavefront) of y[i]^2 y[i ^ 3], by HIP's
// __shfl_down (ds_bpermute among the wavefront's 64 lanes).
__global__ void wavesum(const double *y, double *w) {
  int i = globalId();
  double v = y[i] * y[i] * y[i ^ 3];
  for (int o = 32; o > 0; o /= 2)
    v += __shfl_down(v, o);
  if (__builtin_amdgcn_workitem_id_x() == 0)
    w[__builtin_amdgcn_workgroup_id_x()] = v;
}

double loss(double a, const double *x, double *y, double *out) {
  stencil<<<N / Block, Block>>>(a, x, y, N);
  double half = 0.5 * a;
  void *args[] = {&y, &out, &half};
#ifdef COOPERATIVE // (its cooperative form: the same launch here)
  hipLaunchCooperativeKernel((const void *)reduce, dim3(N / Block),
                             dim3(Block), args, 0, nullptr);
#else
  hipLaunchKernel((const void *)reduce, dim3(N / Block), dim3(Block), args, 0,
                  nullptr);
#endif
  wavesum<<<N / Block, Block>>>(y, out + N / Block);
  hipDeviceSynchronize();
  double s = 0;
  for (int b = 0; b < N / Block; ++b)
    s += (b + 1) * out[b] + 0.5 * (b + 2) * out[N / Block + b];
  for (int i = 0; i < N; i += 7)
    s += 0.01 * y[i];
  return s;
}

static int failures = 0;

static void close(const char *what, int i, double got, double want) {
  double scale = std::fabs(want) > 1 ? std::fabs(want) : 1;
  if (std::fabs(got - want) <= 1e-6 * scale)
    return;
  std::printf("FAIL %s[%d] = %.17g, expected %.17g\n", what, i, got, want);
  ++failures;
}

static double *managed(int n) {
  double *p = nullptr;
  if (hipMallocManaged((void **)&p, n * sizeof(double), 1) != 0) {
    std::puts("FAIL: hipMallocManaged");
    std::exit(1);
  }
  for (int i = 0; i < n; ++i)
    p[i] = 0;
  return p;
}

int main() {
  int devices = 0;
  if (hipGetDeviceCount(&devices) != 0 || devices == 0) {
    std::puts("no HIP device: GPU numerical test not run");
    return 77;
  }
  double *x = managed(N), *dx = managed(N), *y = managed(N), *dy = managed(N);
  // (out: the reductions' sums, then the wavefronts')
  double *out = managed(2 * N / Block), *dout = managed(2 * N / Block);
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.9 * std::sin(0.37 * i);
  const double a = 0.8, h = 1e-6;
  double da = __enzyme_autodiff((void *)loss, a, enzyme_dup, x, dx, enzyme_dup,
                                y, dy, enzyme_dup, out, dout);
  close("da", 0,
        da, (loss(a + h, x, y, out) - loss(a - h, x, y, out)) / (2 * h));
  for (int i : {0, 1, 63, 64, 255}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(a, x, y, out);
    x[i] = keep - h;
    double down = loss(a, x, y, out);
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h));
  }
  double *tx = managed(N);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = std::cos(0.1 * i);
    want += tx[i] * dx[i] + 0.5 * da * 0; // (a's tangent below)
  }
  double tv = __enzyme_fwddiff((void *)loss, a, 2.0, enzyme_dup, x, tx,
                               enzyme_dup, y, dy, enzyme_dup, out, dout);
  close("forward", 0, tv, want + 2.0 * da);
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("da = %.12g, dx[1] = %.12g\nok\n", da, dx[1]);
  return 0;
}
