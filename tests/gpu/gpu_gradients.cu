// Derivatives computed in device code on a GPU, checked against the same
// __host__ __device__ functions' analytic derivatives on the host
// (device_functions.h): forward mode per thread, reverse mode per thread
// with the coefficients' adjoints summed over all threads by atomic adds,
// the thread's x[i] updated plainly. Exits 77, saying why, without a GPU.
#include "device_functions.h"

#include <cstdio>
#include <vector>

extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ void __enzyme_autodiff(void *, ...);
// (The same entry point, matched by its prefix, for a scalar's adjoint.)
extern __device__ double __enzyme_autodiff_scalar(void *, ...);

__global__ void tangents(const double *x, double *t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    t[i] = __enzyme_fwddiff((void *)point, x[i], 1.0);
}

__global__ void gradients(const double *c, double *dc, const double *x,
                          double *dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __enzyme_autodiff((void *)energy, c, dc, x + i, dx + i);
}

// Each thread's result reads its neighbour's square through shared memory:
// out_t = x_{t+1}^2 x_t. The reverse sweep mirrors the barrier, so that
// thread t reads the adjoint of s[t] after thread t - 1 added into it:
// dx_t = d(sum of all out)/dx_t = x_{t+1}^2 + 2 x_t x_{t-1}.
__device__ double exchange(double *s, double x) {
  s[threadIdx.x] = x * x;
  __syncthreads();
  return s[(threadIdx.x + 1) % 32] * x;
}

__global__ void exchanges(const double *x, double *dx) {
  __shared__ double s[32], ds[32];
  ds[threadIdx.x] = 0;
  __syncthreads();
  dx[threadIdx.x] =
      __enzyme_autodiff_scalar((void *)exchange, s, ds, x[threadIdx.x]);
}

static int failures = 0;

static void close(const char *what, int i, double got, double want) {
  double scale = fabs(want) > 1 ? fabs(want) : 1;
  if (fabs(got - want) <= 1e-10 * scale)
    return;
  printf("FAIL %s[%d] = %.17g, expected %.17g\n", what, i, got, want);
  ++failures;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    puts("no CUDA device: GPU numerical test not run");
    return 77;
  }
  const int n = 1000;
  std::vector<double> x(n), t(n), dx(n, 0.0);
  for (int i = 0; i < n; ++i)
    x[i] = 0.1 + 2.5 * i / n;
  double c[3] = {0.7, -0.3, 0.9}, dc[3] = {0, 0, 0};
  double *dX, *dT, *dDX, *dC, *dDC;
  cudaMalloc(&dX, n * sizeof(double));
  cudaMalloc(&dT, n * sizeof(double));
  cudaMalloc(&dDX, n * sizeof(double));
  cudaMalloc(&dC, sizeof c);
  cudaMalloc(&dDC, sizeof dc);
  cudaMemcpy(dX, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dDX, dx.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dC, c, sizeof c, cudaMemcpyHostToDevice);
  cudaMemcpy(dDC, dc, sizeof dc, cudaMemcpyHostToDevice);
  tangents<<<(n + 127) / 128, 128>>>(dX, dT, n);
  gradients<<<(n + 127) / 128, 128>>>(dC, dDC, dX, dDX, n);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    puts("FAIL: kernel launch");
    return 1;
  }
  cudaMemcpy(t.data(), dT, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(dx.data(), dDX, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(dc, dDC, sizeof dc, cudaMemcpyDeviceToHost);
  double *dEX;
  cudaMalloc(&dEX, 32 * sizeof(double));
  exchanges<<<1, 32>>>(dX, dEX);
  std::vector<double> ex(32);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    puts("FAIL: kernel launch");
    return 1;
  }
  cudaMemcpy(ex.data(), dEX, 32 * sizeof(double), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 32; ++t) {
    double next = x[(t + 1) % 32], prev = x[(t + 31) % 32];
    close("exchange", t, ex[t], next * next + 2 * x[t] * prev);
  }
  double want_c[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i) {
    close("tangent", i, t[i], point_derivative(x[i]));
    double gc[3], gx;
    energy_gradient(c, &x[i], gc, &gx);
    close("dx", i, dx[i], gx);
    for (int j = 0; j < 3; ++j)
      want_c[j] += gc[j];
  }
  for (int j = 0; j < 3; ++j)
    close("dc", j, dc[j], want_c[j]);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  puts("ok");
  return 0;
}
