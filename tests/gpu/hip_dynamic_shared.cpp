// The HIP form of gpu_dynamic_shared.cu: a kernel with dynamic LDS
// (`extern __shared__`, its size the third <<<g, b, bytes>>> argument)
// launched in differentiated host code; the derivative kernels get twice
// the bytes (the size from the dispatch packet's group segment less the
// static LDS), the shadow in the second half. A block reduction through
// the dynamic array and a tree of barriers, beside a static __shared__
// array. The gradient against central differences, the tangent against
// the gradient. Compiled without HIP's headers (-nogpuinc); runs on the
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
extern int enzyme_dup;

constexpr int N = 256, Block = 64;

__device__ inline void syncThreads() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

// out[b] = c * sum over block b of (s[t] s[t ^ 1] + sin(s[t + 1])) + w[t],
// s = x^2 in dynamic LDS, w = x in a static array.
__global__ void reduce(const double *x, double *out, double c) {
  extern __shared__ double s[];
  __shared__ double w[Block];
  int t = __builtin_amdgcn_workitem_id_x();
  int i = __builtin_amdgcn_workgroup_id_x() * Block + t;
  s[t] = x[i] * x[i];
  w[t] = x[i];
  syncThreads();
  double v = s[t] * s[t ^ 1] + __ocml_sin_f64(s[(t + 1) % Block]) *
                                   w[(t + 5) % Block];
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

double loss(double c, const double *x, double *out) {
  reduce<<<N / Block, Block, Block * sizeof(double)>>>(x, out, c);
  hipDeviceSynchronize();
  double s = 0;
  for (int b = 0; b < N / Block; ++b)
    s += (b + 1) * out[b];
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
  double *x = managed(N), *dx = managed(N);
  double *out = managed(N / Block), *dout = managed(N / Block);
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.9 * std::sin(0.37 * i);
  const double c = 0.7, h = 1e-6;
  double dc = __enzyme_autodiff((void *)loss, c, enzyme_dup, x, dx,
                                enzyme_dup, out, dout);
  close("dc", 0, dc, (loss(c + h, x, out) - loss(c - h, x, out)) / (2 * h));
  for (int i : {0, 1, 5, 63, 64, 200, 255}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(c, x, out);
    x[i] = keep - h;
    double down = loss(c, x, out);
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h));
  }
  for (int b = 0; b < N / Block; ++b)
    dout[b] = 0;
  double *tx = managed(N);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = std::cos(0.1 * i);
    want += tx[i] * dx[i];
  }
  double tv = __enzyme_fwddiff((void *)loss, c, 0.0, enzyme_dup, x, tx,
                               enzyme_dup, out, dout);
  close("forward dx.v", 0, tv, want);
  double *zero = managed(N);
  double tc = __enzyme_fwddiff((void *)loss, c, 1.0, enzyme_dup, x, zero,
                               enzyme_dup, out, dout);
  close("forward dc", 0, tc, dc);
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("dc = %.12g, dx[1] = %.12g\nok\n", dc, dx[1]);
  return 0;
}
