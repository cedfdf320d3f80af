// Pointer arguments of CUDA launches in differentiated host code without a
// shadow (enzyme_const): the kernel only reads them (a table of
// coefficients every thread reads, per-thread degrees as integers, at -O0
// through stack slots and a helper function), so the derivative treats
// their data as constant. The gradient against central differences, the
// tangent against the gradient. With -DWRITTEN, a kernel that writes
// through a pointer passed without a shadow: the derivative of its launch
// stops with the runtime's message. Runs on a GPU, or on the grid
// emulation (tests/gpu/emulation); exits 77, saying why, without either.
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

constexpr int N = 256, Block = 64, K = 8;

__device__ double coefficient(const double *c, int k) { return c[k]; }

// p[i] = sum_k<m[i] c[k] x[i]^k (Horner), then p[i] *= w[i % K].
__global__ void poly(const double *c, const double *x, double *p,
                     const int *m, const double *w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double s = 0;
  for (int k = m[i] - 1; k >= 0; --k)
    s = s * x[i] + coefficient(c, k);
  p[i] = s * w[i % K];
}

#ifdef WRITTEN
// (Written through a copy of the parameter: the host compile does not
// follow it, the launch's run-time check does. Written through tmp itself,
// it is a located error at compile time: lit
// device/cuda-launch-unshadowed.cu.)
__global__ void scratch(const double *x, double *tmp, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double *t = tmp;
  t[i] = x[i] * x[i];
  y[i] = t[i] + x[i];
}
#endif

double loss(const double *c, const double *x, double *p, const int *m,
            const double *w, double *tmp) {
  poly<<<N / Block, Block>>>(c, x, p, m, w);
#ifdef WRITTEN
  scratch<<<N / Block, Block>>>(x, tmp, p);
#else
  (void)tmp;
#endif
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += (i % 5 + 1) * p[i];
  return s;
}

static int failures = 0;

static void close(const char *what, int i, double got, double want) {
  double scale = fabs(want) > 1 ? fabs(want) : 1;
  if (fabs(got - want) <= 1e-6 * scale)
    return;
  printf("FAIL %s[%d] = %.17g, expected %.17g\n", what, i, got, want);
  ++failures;
}

template <typename T> T *managed(int n) {
  T *p = nullptr;
  if (cudaMallocManaged(&p, n * sizeof(T)) != cudaSuccess) {
    puts("FAIL: cudaMallocManaged");
    std::exit(1);
  }
  for (int i = 0; i < n; ++i)
    p[i] = 0;
  return p;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    puts("no CUDA device: GPU numerical test not run");
    return 77;
  }
  double *c = managed<double>(K), *w = managed<double>(K);
  double *x = managed<double>(N), *dx = managed<double>(N);
  double *p = managed<double>(N), *dp = managed<double>(N);
  double *tmp = managed<double>(N);
  int *m = managed<int>(N);
  for (int k = 0; k < K; ++k) {
    c[k] = 0.4 - 0.07 * k;
    w[k] = 1.0 + 0.1 * k;
  }
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.6 * sin(0.37 * i);
    m[i] = 1 + (i * 5) % K;
  }
  // (c, m, w and tmp without shadows)
  __enzyme_autodiff((void *)loss, enzyme_const, c, enzyme_dup, x, dx,
                    enzyme_dup, p, dp, enzyme_const, m, enzyme_const, w,
                    enzyme_const, tmp);
  const double h = 1e-6;
  for (int i : {0, 1, 7, 63, 64, 200, 255}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(c, x, p, m, w, tmp);
    x[i] = keep - h;
    double down = loss(c, x, p, m, w, tmp);
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h));
  }
  // The coefficients and weights unchanged, nothing written through them.
  for (int k = 0; k < K; ++k) {
    close("c", k, c[k], 0.4 - 0.07 * k);
    close("w", k, w[k], 1.0 + 0.1 * k);
  }
  double *tx = managed<double>(N);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = cos(0.1 * i);
    want += tx[i] * dx[i];
    dp[i] = 0;
  }
  double tv = __enzyme_fwddiff((void *)loss, enzyme_const, c, enzyme_dup, x,
                               tx, enzyme_dup, p, dp, enzyme_const, m,
                               enzyme_const, w, enzyme_const, tmp);
  close("forward dx.v", 0, tv, want);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("dx[1] = %.12g\nok\n", dx[1]);
  return 0;
}
