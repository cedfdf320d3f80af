// Kernels with dynamic shared memory (`extern __shared__`, its size the
// third <<<g, b, bytes>>> argument) launched in differentiated host code:
// the derivative kernels get twice the bytes, the shadow in the second
// half (zeroed by the block in the reverse kernel). A block reduction
// whose threads read their neighbours' squares through the dynamic array
// and a tree of barriers, and a stencil whose tile (two `extern __shared__`
// names of the same memory, floats) holds a halo. The gradient is checked
// against central differences of the loss, the tangents against the
// gradient. Runs on a GPU, or on the grid emulation (tests/gpu/emulation);
// exits 77, saying why, without either.
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

constexpr int N = 256, Block = 64;

// out[b] = c * sum over block b of (s[t] s[t ^ 1] + sin(s[t + 1])), s = x^2
// staged in dynamic shared memory.
__global__ void reduce(const double *x, double *out, double c) {
  extern __shared__ double s[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = x[i] * x[i];
  __syncthreads();
  double v = s[t] * s[t ^ 1] + sin(s[(t + 1) % blockDim.x]);
  __syncthreads();
  s[t] = v;
  __syncthreads();
  for (int o = blockDim.x / 2; o > 0; o /= 2) {
    if (t < o)
      s[t] += s[t + o];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = c * s[0];
}

// g[i] = f[i-1] f[i] + f[i+1]^2 (clamped at the ends) from a tile of
// blockDim.x + 2 floats with a halo; `halo` names the same memory.
__global__ void stencil(const float *f, float *g, int n) {
  extern __shared__ float tile[];
  extern __shared__ float halo[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t + 1] = f[i];
  if (t == 0)
    halo[0] = f[i > 0 ? i - 1 : 0];
  if (t == blockDim.x - 1)
    halo[blockDim.x + 1] = f[i + 1 < n ? i + 1 : n - 1];
  __syncthreads();
  g[i] = tile[t] * tile[t + 1] + tile[t + 2] * tile[t + 2];
}

double loss(double c, const double *x, double *out, const float *f,
            float *g) {
  reduce<<<N / Block, Block, Block * sizeof(double)>>>(x, out, c);
  stencil<<<N / Block, Block, (Block + 2) * sizeof(float)>>>(f, g, N);
  cudaDeviceSynchronize();
  double s = 0;
  for (int b = 0; b < N / Block; ++b)
    s += (b + 1) * out[b];
  for (int i = 0; i < N; ++i)
    s += (i % 3 + 1) * double(g[i]);
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
  double *out = managed<double>(N / Block), *dout = managed<double>(N / Block);
  float *f = managed<float>(N), *df = managed<float>(N);
  float *g = managed<float>(N), *dg = managed<float>(N);
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.9 * sin(0.37 * i);
    f[i] = 0.5f + 0.25f * float(i % 5);
  }
  const double c = 0.7;
  double dc = __enzyme_autodiff((void *)loss, c, enzyme_dup, x, dx,
                                enzyme_dup, out, dout, enzyme_dup, f, df,
                                enzyme_dup, g, dg);
  const double h = 1e-6;
  close("dc", 0, dc, (loss(c + h, x, out, f, g) - loss(c - h, x, out, f, g)) /
                         (2 * h), 1e-6);
  for (int i : {0, 1, 63, 64, 65, 200, 255}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(c, x, out, f, g);
    x[i] = keep - h;
    double down = loss(c, x, out, f, g);
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h), 1e-6);
  }
  for (int i : {0, 1, 63, 64, 127, 128, 255}) {
    float keep = f[i];
    const float hf = 1e-2f;
    f[i] = keep + hf;
    double up = loss(c, x, out, f, g);
    f[i] = keep - hf;
    double down = loss(c, x, out, f, g);
    f[i] = keep;
    close("df", i, df[i], (up - down) / (2 * double(hf)), 2e-3);
  }

  // Forward mode against reverse: the tangent of c, then of x and f in
  // directions v and w.
  for (int b = 0; b < N / Block; ++b)
    dout[b] = 0;
  double *tx = managed<double>(N);
  float *tf = managed<float>(N);
  double tc = __enzyme_fwddiff((void *)loss, c, 1.0, enzyme_dup, x, tx,
                               enzyme_dup, out, dout, enzyme_dup, f, tf,
                               enzyme_dup, g, dg);
  close("forward dc", 0, tc, dc, 1e-10);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = cos(0.1 * i);
    tf[i] = float(sin(0.2 * i));
    want += tx[i] * dx[i] + double(tf[i]) * double(df[i]);
  }
  double tv = __enzyme_fwddiff((void *)loss, c, 0.0, enzyme_dup, x, tx,
                               enzyme_dup, out, dout, enzyme_dup, f, tf,
                               enzyme_dup, g, dg);
  close("forward dx.v + df.w", 0, tv, want, 1e-5);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("dc = %.12g, dx[1] = %.12g, df[64] = %.8g\nok\n", dc, dx[1],
         double(df[64]));
  return 0;
}
