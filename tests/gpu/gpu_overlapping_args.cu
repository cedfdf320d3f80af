// Kernels given pointer arguments that point into one array (docs/gpu.md,
// "Atomic adjoint updates"): pair<<<...>>>(x, x + 1, s) reads x[i] and
// x[i + 1] through its two parameters, so thread i and thread i + 1 add
// into one adjoint; the derivative kernels add atomically (a plain update
// raced: lit device/overlapping-parameters.cu checks the IR). The same
// through a device function differentiated in device code. The gradient
// is checked against its analytic value, central differences and forward
// mode. Runs on a GPU, or on the grid emulation (tests/gpu/emulation);
// exits 77, saying why, without either.
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern __device__ void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

constexpr int N = 256, Block = 64;

// s[i] = x[i] * y[i] * (1 + c[0]): c may point into x too.
__global__ void pair(const double *x, const double *y, const double *c,
                     double *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = x[i] * y[i] * (1 + c[0]);
}

// t[i] = sin(u[i]) * v[i], differentiated in device code with v = u + 1.
__device__ void product(const double *u, const double *v, double *t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[i] = sin(u[i]) * v[i];
}

__global__ void product_gradient(const double *u, double *du, double *t,
                                 double *dt) {
  __enzyme_autodiff((void *)product, u, du, u + 1, du + 1, t, dt);
}

// The loss: sum over i of (i % 5 + 1) s[i], x of N + 1 elements, c = x + 7.
double loss(const double *x, double *s) {
  pair<<<N / Block, Block>>>(x, x + 1, x + 7, s);
  cudaDeviceSynchronize();
  double l = 0;
  for (int i = 0; i < N; ++i)
    l += (i % 5 + 1) * s[i];
  return l;
}

static int failures = 0;

static void close(const char *what, int i, double got, double want,
                  double tol) {
  double scale = fabs(want) > 1 ? fabs(want) : 1;
  if (fabs(got - want) <= tol * scale)
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
  double *x = managed<double>(N + 1), *dx = managed<double>(N + 1);
  double *s = managed<double>(N), *ds = managed<double>(N);
  for (int i = 0; i <= N; ++i)
    x[i] = 0.4 + 0.7 * sin(0.31 * i);

  // Reverse mode through the launch.
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, s, ds);
  // Analytic: with w_i = i % 5 + 1 and k = 1 + x[7], l = k sum w_i x_i
  // x_{i+1}: dl/dx_j = k (w_j x_{j+1} + w_{j-1} x_{j-1}), plus, at j = 7,
  // the sum itself.
  double k = 1 + x[7], sum = 0;
  for (int i = 0; i < N; ++i)
    sum += (i % 5 + 1) * x[i] * x[i + 1];
  for (int j = 0; j <= N; ++j) {
    double want = 0;
    if (j < N)
      want += k * (j % 5 + 1) * x[j + 1];
    if (j > 0)
      want += k * ((j - 1) % 5 + 1) * x[j - 1];
    if (j == 7)
      want += sum;
    close("dx", j, dx[j], want, 1e-12);
  }
  const double h = 1e-6;
  for (int j : {0, 1, 7, 63, 64, 65, 200, N}) {
    double keep = x[j];
    x[j] = keep + h;
    double up = loss(x, s);
    x[j] = keep - h;
    double down = loss(x, s);
    x[j] = keep;
    close("central dx", j, dx[j], (up - down) / (2 * h), 1e-6);
  }
  // Forward mode against reverse, in direction v.
  double *tx = managed<double>(N + 1), *ts = managed<double>(N);
  double want = 0;
  for (int i = 0; i <= N; ++i) {
    tx[i] = cos(0.13 * i);
    want += tx[i] * dx[i];
  }
  double tv =
      __enzyme_fwddiff((void *)loss, enzyme_dup, x, tx, enzyme_dup, s, ts);
  close("forward dx.v", 0, tv, want, 1e-10);

  // In device code: dt = 1, so du_j = cos(u_j) u_{j+1} + sin(u_{j-1}).
  double *du = managed<double>(N + 1), *t = managed<double>(N),
         *dt = managed<double>(N);
  for (int i = 0; i < N; ++i)
    dt[i] = 1;
  product_gradient<<<N / Block, Block>>>(x, du, t, dt);
  cudaDeviceSynchronize();
  for (int j = 0; j <= N; ++j) {
    double w = 0;
    if (j < N)
      w += cos(x[j]) * x[j + 1];
    if (j > 0)
      w += sin(x[j - 1]);
    close("du", j, du[j], w, 1e-12);
  }
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("dx[7] = %.12g, du[1] = %.12g\nok\n", dx[7], du[1]);
  return 0;
}
