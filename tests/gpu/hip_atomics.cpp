// HIP's atomicAdd (as HIP's headers define it: __hip_atomic_fetch_add,
// whose result the program drops) in a kernel launched in differentiated
// host code and in a device function differentiated in device code, at
// -O0 too, where atomicAdd is a call that keeps the old value in a stack
// slot before returning it (refused before 2026-12-06). Histograms of
// floats and doubles: the gradient against central differences, the
// tangent against the gradient; the device-code gradient against its
// analytic value. Compiled without HIP's headers (-nogpuinc); runs on the
// grid emulation (run-emulated.sh --hip), or where HIP's runtime and a GPU
// are present.
#include <adcc/kernels.hpp>

#include <cmath>
#include <cstdio>

extern "C" {
hipError_t hipMallocManaged(void **, std::size_t, unsigned);
hipError_t hipGetDeviceCount(int *);
__device__ double __ocml_sin_f64(double);
}
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern __device__ void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

constexpr int N = 256, Block = 64;

// (HIP's header's form.)
template <typename T> __device__ inline T atomicAdd(T *p, T v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED,
                                __HIP_MEMORY_SCOPE_AGENT);
}

__device__ inline unsigned globalId() {
  return __builtin_amdgcn_workgroup_id_x() *
             __builtin_amdgcn_workgroup_size_x() +
         __builtin_amdgcn_workitem_id_x();
}

template <typename T> __global__ void histogram(const T *x, T *bins) {
  unsigned i = globalId();
  atomicAdd(&bins[i % 5], x[i] * x[i]);
  atomicAdd(&bins[5], T(__ocml_sin_f64(double(x[i]))));
}

template <typename T> double loss(const T *x, T *bins) {
  for (int b = 0; b < 6; ++b)
    bins[b] = 0;
  histogram<<<N / Block, Block>>>(x, bins);
  hipDeviceSynchronize();
  double l = 0;
  for (int b = 0; b < 6; ++b)
    l += (0.5 + 0.25 * b) * double(bins[b]) * double(bins[b]);
  return l;
}

// out += x[i]^3 by every thread: dx_i = 3 x_i^2 dout.
__device__ void cubes(const double *x, double *out) {
  unsigned i = globalId();
  atomicAdd(out, x[i] * x[i] * x[i]);
}

__global__ void cubes_gradient(const double *x, double *dx, double *out,
                               double *dout) {
  __enzyme_autodiff((void *)cubes, x, dx, out, dout);
}

static int failures = 0;

static void close(const char *what, int i, double got, double want,
                  double tol) {
  double scale = std::fabs(want) > 1 ? std::fabs(want) : 1;
  if (std::fabs(got - want) <= tol * scale)
    return;
  std::printf("FAIL %s[%d] = %.17g, expected %.17g\n", what, i, got, want);
  ++failures;
}

template <typename T> static T *managed(int n) {
  T *p = nullptr;
  if (hipMallocManaged((void **)&p, n * sizeof(T), 1) != 0) {
    std::puts("FAIL: hipMallocManaged");
    std::exit(1);
  }
  for (int i = 0; i < n; ++i)
    p[i] = 0;
  return p;
}

template <typename T> static void check(const char *name, double h,
                                        double tol) {
  T *x = managed<T>(N), *dx = managed<T>(N), *tx = managed<T>(N);
  T *bins = managed<T>(6), *dbins = managed<T>(6);
  for (int i = 0; i < N; ++i)
    x[i] = T(0.3 + 0.5 * std::sin(0.37 * i));
  __enzyme_autodiff((void *)loss<T>, enzyme_dup, x, dx, enzyme_dup, bins,
                    dbins);
  for (int i : {0, 1, 5, 63, 64, 200, 255}) {
    T keep = x[i];
    x[i] = T(keep + h);
    double up = loss(x, bins);
    x[i] = T(keep - h);
    double down = loss(x, bins);
    x[i] = keep;
    close(name, i, double(dx[i]), (up - down) / (2 * h), tol);
  }
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = T(std::cos(0.13 * i));
    want += double(tx[i]) * double(dx[i]);
  }
  for (int b = 0; b < 6; ++b)
    dbins[b] = 0;
  double tv = __enzyme_fwddiff((void *)loss<T>, enzyme_dup, x, tx, enzyme_dup,
                               bins, dbins);
  close(name, -1, tv, want, sizeof(T) == 4 ? 1e-4 : 1e-10);
}

int main() {
  int devices = 0;
  if (hipGetDeviceCount(&devices) != 0 || devices == 0) {
    std::puts("no HIP device: GPU numerical test not run");
    return 77;
  }
  check<double>("histogram<double> dx", 1e-6, 1e-6);
  check<float>("histogram<float> dx", 1e-2, 5e-3);
  double *x = managed<double>(N), *dx = managed<double>(N);
  double *out = managed<double>(1), *dout = managed<double>(1);
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.5 * std::sin(0.37 * i);
  dout[0] = 2;
  cubes_gradient<<<N / Block, Block>>>(x, dx, out, dout);
  hipDeviceSynchronize();
  for (int i = 0; i < N; ++i)
    close("cubes dx", i, dx[i], 6 * x[i] * x[i], 1e-12);
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::puts("ok");
  return 0;
}
