// CUDA's own launches (k<<<grid, block>>>(args)) in differentiated host
// code: the loss below launches three kernels (a stencil whose threads read
// their neighbours' x and a scalar, a block reduction through __shared__
// memory with barriers launched by calling cudaLaunchKernel directly (with
// -DCOOPERATIVE, cudaLaunchCooperativeKernel), a
// 2-D grid of floats) and reads their outputs in managed memory. Its gradient (__enzyme_autodiff: the augmented kernels
// with per-thread tape slots, then the reverse kernels) and its tangents
// (__enzyme_fwddiff: the tangent kernels) are checked against central
// differences of the loss and against each other. Runs on a GPU, or on the
// grid emulation (tests/gpu/emulation); exits 77, saying why, without
// either.
#include <cmath>
#include <cstdlib>
#include <cstdio>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

constexpr int N = 256, Block = 64, W = 16, H = 8;

#ifdef TAPE_RESERVE // (a reserve too small for horner's records)
extern "C" __device__ const unsigned long long adcc_device_tape_bytes =
    TAPE_RESERVE;
#endif

// y[i] = a sin(x[i]) x[i-1] + x[i+1]^2 (neighbours clamped): threads read
// other threads' x and every thread reads a.
__global__ void stencil(double a, const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double left = x[i > 0 ? i - 1 : 0], right = x[i + 1 < n ? i + 1 : n - 1];
  y[i] = a * sin(x[i]) * left + right * right;
}

// out[b] = c * sum over block b of y[i]^2 * y[i ^ 1], through shared
// memory and a tree of barriers.
__global__ void reduce(const double *y, double *out, double c) {
  __shared__ double s[Block];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = y[i] * y[i];
  __syncthreads();
  double v = s[t] * y[i ^ 1];
  __syncthreads();
  s[t] = v;
  __syncthreads();
  for (int o = Block / 2; o > 0; o /= 2) {
    if (t < o)
      s[t] += s[t + o];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = c * s[0];
}

// p[i] = the polynomial of degree m[i] (run-time trip counts: the
// records go to the tape slot's reserve) with coefficients c at x[i].
__global__ void horner(const double *c, const double *x, double *p,
                       const int *m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double s = 0;
  for (int k = 0; k < m[i]; ++k)
    s = s * x[i] + c[k];
  p[i] = s;
}

#ifdef ASSEMBLED
// Inline assembly: no derivative kernels, a warning when the device code
// is compiled, a message when the launch is differentiated.
__global__ void assembled(double *y) {
  double v;
  asm("mov.f64 %0, %1;" : "=d"(v) : "d"(y[threadIdx.x]));
  y[threadIdx.x] = v * v;
}
#endif

// A 2-D grid of floats: g[r][k] = (f[r][k]^2 + 0.5) * f[r][(k + 1) % W].
__global__ void grid2d(const float *f, float *g) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  float v = f[r * W + k];
  g[r * W + k] = (v * v + 0.5f) * f[r * W + (k + 1) % W];
}

// The loss of all three: x, y, out, f and g are in managed memory.
double loss(double a, const double *x, double *y, double *out, const float *f,
            float *g, const double *c, double *p, const int *m) {
  stencil<<<N / Block, Block>>>(a, x, y, N);
  // (the runtime called directly: the same launch as <<<...>>>)
  double half = 0.5 * a;
  void *args[] = {&y, &out, &half};
#ifdef COOPERATIVE // (its cooperative form: the same launch here)
  cudaLaunchCooperativeKernel((const void *)reduce, dim3(N / Block),
                              dim3(Block), args, 0, nullptr);
#else
  cudaLaunchKernel((const void *)reduce, dim3(N / Block), dim3(Block), args,
                   0, nullptr);
#endif
  grid2d<<<dim3(W / 8, H / 4), dim3(8, 4)>>>(f, g);
  horner<<<N / Block, Block>>>(c, y, p, m);
#ifdef ASSEMBLED
  assembled<<<1, 32>>>(y);
#endif
  cudaDeviceSynchronize();
  double s = 0;
  for (int b = 0; b < N / Block; ++b)
    s += (b + 1) * out[b];
  for (int i = 0; i < N; i += 7)
    s += 0.01 * y[i];
  for (int i = 0; i < W * H; ++i)
    s += (i % 3 + 1) * double(g[i]);
  for (int i = 0; i < N; i += 5)
    s += 0.1 * p[i];
  return s;
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
  double *x = managed<double>(N), *dx = managed<double>(N);
  double *y = managed<double>(N), *dy = managed<double>(N);
  double *out = managed<double>(N / Block), *dout = managed<double>(N / Block);
  float *f = managed<float>(W * H), *df = managed<float>(W * H);
  float *g = managed<float>(W * H), *dg = managed<float>(W * H);
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.9 * sin(0.37 * i);
  for (int i = 0; i < W * H; ++i)
    f[i] = 0.5f + 0.25f * float(i % 5);
  const double a = 0.8;
  double *c = managed<double>(12), *dc = managed<double>(12);
  double *p = managed<double>(N), *dp = managed<double>(N);
  // (m carries no derivative; given a shadow here, which stays untouched:
  // gpu_const_pointers.cu passes such arrays without one)
  int *m = managed<int>(N), *dm = managed<int>(N);
  for (int k = 0; k < 12; ++k)
    c[k] = 0.3 - 0.05 * k;
  for (int i = 0; i < N; ++i)
    m[i] = 1 + (i * 7) % 12;

  // Reverse mode: d loss / d a, d loss / d x, d loss / d f.
  double da = __enzyme_autodiff((void *)loss, a, enzyme_dup, x, dx, enzyme_dup,
                                y, dy, enzyme_dup, out, dout, enzyme_dup, f,
                                df, enzyme_dup, g, dg, enzyme_dup, c, dc,
                                enzyme_dup, p, dp, enzyme_dup, m, dm);

  // Central differences of the loss (in double, of the float inputs too).
  const double h = 1e-6;
  double want_da = (loss(a + h, x, y, out, f, g, c, p, m) -
                    loss(a - h, x, y, out, f, g, c, p, m)) / (2 * h);
  close("da", 0, da, want_da, 1e-6);
  for (int i : {0, 1, 63, 64, 100, 255}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(a, x, y, out, f, g, c, p, m);
    x[i] = keep - h;
    double down = loss(a, x, y, out, f, g, c, p, m);
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h), 1e-6);
  }
  for (int k : {0, 3, 11}) {
    double keep = c[k];
    c[k] = keep + h;
    double up = loss(a, x, y, out, f, g, c, p, m);
    c[k] = keep - h;
    double down = loss(a, x, y, out, f, g, c, p, m);
    c[k] = keep;
    close("dc", k, dc[k], (up - down) / (2 * h), 1e-6);
  }
  for (int i : {0, 5, 15, 16, 127}) {
    float keep = f[i];
    const float hf = 1e-2f;
    f[i] = keep + hf;
    double up = loss(a, x, y, out, f, g, c, p, m);
    f[i] = keep - hf;
    double down = loss(a, x, y, out, f, g, c, p, m);
    f[i] = keep;
    close("df", i, df[i], (up - down) / (2 * double(hf)), 2e-3);
  }

  // Forward mode against reverse: tangent of a, then of x in direction v.
  for (int i = 0; i < N; ++i)
    dy[i] = 0;
  for (int b = 0; b < N / Block; ++b)
    dout[b] = 0;
  for (int i = 0; i < W * H; ++i)
    df[i] = dg[i] = 0;
  double *tx = managed<double>(N), *tc = managed<double>(12);
  for (int i = 0; i < N; ++i)
    dp[i] = 0;
  double ta = __enzyme_fwddiff((void *)loss, a, 1.0, enzyme_dup, x, tx,
                               enzyme_dup, y, dy, enzyme_dup, out, dout,
                               enzyme_dup, f, df, enzyme_dup, g, dg,
                               enzyme_dup, c, tc, enzyme_dup, p, dp,
                               enzyme_dup, m, dm);
  close("forward da", 0, ta, da, 1e-10);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = cos(0.1 * i);
    want += tx[i] * dx[i];
  }
  double tv = __enzyme_fwddiff((void *)loss, a, 0.0, enzyme_dup, x, tx,
                               enzyme_dup, y, dy, enzyme_dup, out, dout,
                               enzyme_dup, f, df, enzyme_dup, g, dg,
                               enzyme_dup, c, tc, enzyme_dup, p, dp,
                               enzyme_dup, m, dm);
  close("forward dx.v", 0, tv, want, 1e-10);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("da = %.12g, dx[1] = %.12g\nok\n", da, dx[1]);
  return 0;
}
