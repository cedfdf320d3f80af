// Kernels in the style people write, launched with <<<...>>> in
// differentiated host code: a grid-stride loop over more elements than
// threads, a tree reduction in shared memory with __syncthreads() over a
// run-time block size where one thread writes the block's result, a
// warp-shuffle reduction (__shfl_down_sync) whose lane 0 adds into the
// output with atomicAdd, atomicAdd histograms of floats and doubles, a
// struct of arrays passed by pointer, __restrict__ on some arrays but not
// all (with arrays given overlapping at the launch), and kernels from a
// header (adversarial_kernels.cuh, templates over float and double; the
// header is included by tests/lit/device/Inputs/adversarial-other.cu
// too). Each loss's gradient (__enzyme_autodiff) is checked against
// central differences, and its tangent (__enzyme_fwddiff) against the
// gradient. Device-code
// gradients of the same patterns (__enzyme_autodiff in a kernel) are
// checked against analytic values. Runs on a GPU, or on the grid
// emulation (tests/gpu/emulation); exits 77, saying why, without either.
#include "adversarial_kernels.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern __device__ void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

constexpr int NX = 320, Block = 64;

// A grid-stride loop over n > threads elements; every thread reads the
// coefficient a from memory and gets b by value.
__global__ void gridstride(const double *x, double *y, int n, double b) {
  double a = x[n];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * sin(x[i]) + b * x[i] * x[i];
}

// A tree reduction in shared memory over blockDim.x (known at run time
// only), nonlinear at each level; thread 0 writes the block's result.
__global__ void treesum(const double *x, double *out) {
  __shared__ double s[128];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = exp(0.5 * x[i]) * x[i];
  __syncthreads();
  for (unsigned o = blockDim.x / 2; o > 0; o >>= 1) {
    if (t < o)
      s[t] = s[t] + 0.25 * s[t + o] * s[t + o];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

// A warp-shuffle reduction; lane 0 of each warp adds into one of two
// outputs with atomicAdd.
__global__ void warpsum(const double *x, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = x[i] * x[(i + 1) % n];
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(&out[blockIdx.x % 2], v * v);
}

// Histograms: every thread adds into one of five bins.
template <typename T> __global__ void histogram(const T *x, T *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[i % 5], x[i] * x[i]);
  atomicAdd(&bins[5], sin(x[i]));
}

// A struct of arrays, passed by pointer.
struct SoA {
  const double *x, *y;
  double *z;
  int n;
};

__global__ void soa(const SoA *s, double c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s->n)
    s->z[i] = c * s->x[i] * s->y[i] + s->x[(i + 3) % s->n];
}

// __restrict__ on x and y, not on c and z; launched with c and z pointing
// into x (legal: x is only read).
__global__ void partial(const double *__restrict__ x, const double *c,
                        double *__restrict__ y, const double *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] * c[0] + z[i] * z[i];
}

// __restrict__ on the array written in place, not on the one read.
__global__ void scale_restrict(double *__restrict__ y, const double *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = y[i] * x[i] + x[i];
}

// The losses: functions of x (NX numbers) and a work buffer, checked
// alike by check() below.
static double weight(int i) { return 0.5 + (i % 7) * 0.25; }

double loss_gridstride(const double *x, double *w) {
  gridstride<<<2, Block>>>(x, w, 300, x[301] * x[302]);
  cudaDeviceSynchronize();
  double l = 0;
  for (int i = 0; i < 300; ++i)
    l += weight(i) * w[i];
  return l;
}

double loss_treesum(const double *x, double *w) {
  treesum<<<4, Block>>>(x, w);
  treesum<<<2, 32>>>(x + 256, w + 4);
  cudaDeviceSynchronize();
  double l = 0;
  for (int b = 0; b < 6; ++b)
    l += weight(b) * w[b];
  return l;
}

double loss_warpsum(const double *x, double *w) {
  w[0] = w[1] = 0;
  warpsum<<<4, Block>>>(x, w, 256);
  cudaDeviceSynchronize();
  return w[0] + 0.002 * w[1] * w[1];
}

double loss_histogram(const double *x, double *w) {
  for (int b = 0; b < 6; ++b)
    w[b] = 0;
  histogram<<<5, Block>>>(x, w);
  cudaDeviceSynchronize();
  double l = 0;
  for (int b = 0; b < 6; ++b)
    l += weight(b) * w[b] * w[b];
  return l;
}

float loss_histogram_float(const float *x, float *w) {
  for (int b = 0; b < 6; ++b)
    w[b] = 0;
  histogram<<<5, Block>>>(x, w);
  cudaDeviceSynchronize();
  float l = 0;
  for (int b = 0; b < 6; ++b)
    l += float(weight(b)) * w[b];
  return l;
}

// (s is in managed memory: work holds it, the shadow work its shadow.)
double loss_soa(const double *x, double *w) {
  SoA *s = (SoA *)w;
  s->x = x;
  s->y = x + 1;
  s->z = w + 8;
  s->n = 250;
  soa<<<4, Block>>>(s, x[310]);
  cudaDeviceSynchronize();
  double l = 0;
  for (int i = 0; i < 250; ++i)
    l += weight(i) * w[8 + i];
  return l;
}

double loss_partial(const double *x, double *w) {
  partial<<<4, Block>>>(x, x + 3, w, x + 1);
  // (y written in place; x + 256 apart from it)
  for (int i = 0; i < 64; ++i)
    w[256 + i] = x[i] + 1;
  scale_restrict<<<1, Block>>>(w + 256, x + 256);
  cudaDeviceSynchronize();
  double l = 0;
  for (int i = 0; i < 320; ++i)
    l += weight(i) * w[i];
  return l;
}

double loss_header(const double *x, double *w) {
  header_stencil<<<5, Block>>>(x, w, NX);
  for (int i = 0; i < 256; ++i)
    w[NX + i] = 0.5 * x[i + 10];
  header_inplace<<<4, Block>>>(w + NX, x + 2);
  cudaDeviceSynchronize();
  double l = 0;
  for (int i = 0; i < NX; ++i)
    l += weight(i) * w[i];
  for (int i = 0; i < 256; ++i)
    l += weight(i + 1) * w[NX + i];
  return l;
}

float loss_header_float(const float *x, float *w) {
  header_stencil<<<5, Block>>>(x, w, NX);
  for (int i = 0; i < 256; ++i)
    w[NX + i] = 0.5f * x[i + 10];
  header_inplace<<<4, Block>>>(w + NX, x + 2);
  cudaDeviceSynchronize();
  float l = 0;
  for (int i = 0; i < NX; ++i)
    l += float(weight(i)) * w[i];
  for (int i = 0; i < 256; ++i)
    l += float(weight(i + 1)) * w[NX + i];
  return l;
}

// Device-code gradients: a grid-stride loop, a shared-memory tree
// reduction, a warp-shuffle reduction and an atomicAdd, each a device
// function differentiated in a kernel.
__device__ void gs_body(const double *x, double *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = x[i] * x[i] * x[n];
}

__global__ void gs_gradient(const double *x, double *dx, double *y, double *dy,
                            int n) {
  __enzyme_autodiff((void *)gs_body, x, dx, y, dy, n);
}

// Block sum of x[i]^2 through shared memory (blockDim.x threads, a power
// of two), thread 0 adds it into out.
__device__ void block_body(const double *x, double *s, double *out) {
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = x[i] * x[i];
  __syncthreads();
  for (unsigned o = blockDim.x / 2; o > 0; o >>= 1) {
    if (t < o)
      s[t] += s[t + o];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(out, s[0] * s[0]);
}

__global__ void block_gradient(const double *x, double *dx, double *out,
                               double *dout) {
  __shared__ double s[Block], ds[Block];
  ds[threadIdx.x] = 0;
  __syncthreads();
  __enzyme_autodiff((void *)block_body, x, dx, s, ds, out, dout);
}

// Warp sum of sin(x[i]), lane 0 adds it into out.
__device__ void warp_body(const double *x, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = sin(x[i]);
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, v * v);
}

__global__ void warp_gradient(const double *x, double *dx, double *out,
                              double *dout) {
  __enzyme_autodiff((void *)warp_body, x, dx, out, dout);
}

__global__ void pair_gradient(const double *u, double *du, double *t,
                              double *dt) {
  __enzyme_autodiff((void *)header_pair, u, du, u + 1, du + 1, t, dt);
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

constexpr int NW = 1024;

// The gradient of F against central differences at some of x's elements,
// and the tangent in direction cos(0.13 i) against the gradient.
template <typename T, typename R, R (*F)(const T *, T *)>
void check(const char *name, double h, double tol) {
  T *x = managed<T>(NX), *dx = managed<T>(NX), *tx = managed<T>(NX);
  T *w = managed<T>(NW), *dw = managed<T>(NW);
  for (int i = 0; i < NX; ++i)
    x[i] = T(0.4 + 0.5 * sin(0.37 * i + 0.2));
  __enzyme_autodiff((void *)F, enzyme_dup, x, dx, enzyme_dup, w, dw);
  for (int i : {0,   1,   2,   3,   4,   31,  32,  63,  64,  100, 127,
                128, 255, 256, 257, 290, 299, 300, 301, 302, 310, 319}) {
    T keep = x[i];
    x[i] = T(keep + h);
    double up = F(x, w);
    x[i] = T(keep - h);
    double down = F(x, w);
    x[i] = keep;
    char what[64];
    snprintf(what, sizeof what, "%s: dx", name);
    close(what, i, dx[i], (up - down) / (2 * h), tol);
  }
  double want = 0;
  for (int i = 0; i < NX; ++i) {
    tx[i] = T(cos(0.13 * i));
    want += double(tx[i]) * double(dx[i]);
  }
  for (int i = 0; i < NW; ++i)
    dw[i] = 0;
  double tv = __enzyme_fwddiff((void *)F, enzyme_dup, x, tx, enzyme_dup, w, dw);
  char what[64];
  snprintf(what, sizeof what, "%s: forward dx.v", name);
  close(what, 0, tv, want, sizeof(T) == 4 ? 1e-4 : 1e-10);
  cudaFree(x);
  cudaFree(dx);
  cudaFree(tx);
  cudaFree(w);
  cudaFree(dw);
}

// The device-code gradients against their analytic values.
void check_device() {
  const int n = 256;
  double *x = managed<double>(n + 1), *dx = managed<double>(n + 1);
  double *y = managed<double>(n), *dy = managed<double>(n);
  for (int i = 0; i <= n; ++i)
    x[i] = 0.4 + 0.5 * sin(0.37 * i + 0.2);
  // Grid-stride: y[i] = x[i]^2 x[n], dy = 1 over 256 elements by 96
  // threads.
  for (int i = 0; i < n; ++i)
    dy[i] = 1;
  gs_gradient<<<3, 32>>>(x, dx, y, dy, n);
  cudaDeviceSynchronize();
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    close("gs_body dx", i, dx[i], 2 * x[i] * x[n], 1e-12);
    sum += x[i] * x[i];
  }
  close("gs_body dx", n, dx[n], sum, 1e-12);
  // Block sums: out += S_b^2 per block, dout = 1: dx_i = 4 S_b x_i.
  double *out = managed<double>(1), *dout = managed<double>(1);
  for (int i = 0; i <= n; ++i)
    dx[i] = 0;
  dout[0] = 1;
  block_gradient<<<n / Block, Block>>>(x, dx, out, dout);
  cudaDeviceSynchronize();
  for (int b = 0; b < n / Block; ++b) {
    double s = 0;
    for (int t = 0; t < Block; ++t)
      s += x[b * Block + t] * x[b * Block + t];
    for (int t = 0; t < Block; ++t)
      close("block_body dx", b * Block + t, dx[b * Block + t],
            4 * s * x[b * Block + t], 1e-12);
  }
  // Warp sums: out += W^2 per warp of sin: dx_i = 2 W cos(x_i).
  for (int i = 0; i <= n; ++i)
    dx[i] = 0;
  out[0] = 0;
  dout[0] = 1;
  warp_gradient<<<n / Block, Block>>>(x, dx, out, dout);
  cudaDeviceSynchronize();
  for (int wp = 0; wp < n / 32; ++wp) {
    double s = 0;
    for (int l = 0; l < 32; ++l)
      s += sin(x[wp * 32 + l]);
    for (int l = 0; l < 32; ++l)
      close("warp_body dx", wp * 32 + l, dx[wp * 32 + l],
            2 * s * cos(x[wp * 32 + l]), 1e-12);
  }
  // header_pair with v = u + 1: t_i = u_i u_{i+1}^2, dt = 1:
  // du_j = u_{j+1}^2 + 2 u_{j-1} u_j.
  double *du = managed<double>(n + 1);
  for (int i = 0; i < n; ++i)
    dy[i] = 1;
  pair_gradient<<<n / Block, Block>>>(x, du, y, dy);
  cudaDeviceSynchronize();
  for (int j = 0; j <= n; ++j) {
    double want = 0;
    if (j < n)
      want += x[j + 1] * x[j + 1];
    if (j > 0)
      want += 2 * x[j - 1] * x[j];
    close("header_pair du", j, du[j], want, 1e-12);
  }
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    puts("no CUDA device: GPU numerical test not run");
    return 77;
  }
  check<double, double, loss_gridstride>("gridstride", 1e-6, 1e-6);
  check<double, double, loss_treesum>("treesum", 1e-6, 1e-6);
  check<double, double, loss_warpsum>("warpsum", 1e-6, 1e-6);
  check<double, double, loss_histogram>("histogram", 1e-6, 1e-6);
  check<float, float, loss_histogram_float>("histogram<float>", 1e-2, 5e-3);
  check<double, double, loss_soa>("soa", 1e-6, 1e-6);
  check<double, double, loss_partial>("partial restrict", 1e-6, 1e-6);
  check<double, double, loss_header>("header", 1e-6, 1e-6);
  check<float, float, loss_header_float>("header<float>", 1e-2, 5e-3);
  check_device();
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  puts("ok");
  return 0;
}
