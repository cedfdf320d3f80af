// Combined gradients (__enzyme_autodiff in a kernel) of loops whose trip
// count is known only at run time, and of recursion: each thread its own
// count or depth. Their records live in a reserve in the thread's frame
// (adcc_device_tape_bytes, here the default 8192 bytes), each push checked
// against it. The gradients are
// checked against analytic derivatives, central differences on the host and
// the device's forward mode; the coefficients' adjoints are summed over all
// threads of four blocks by atomic adds.
//
// With -DTAPE_RESERVE=256 the reserve is 256 bytes and the longest loops
// and recursions need more: the kernel stops at the record with CUDA's
// assertion message (the record's file and line; the first thread past
// it, in any of the three), which ctest gpu.emulated_device_tapes_overflow
// expects. Exits 77, saying why, without a GPU.
#include <cmath>
#include <cstdio>
#include <vector>

extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ void __enzyme_autodiff(void *, ...);
// (The same entry point, matched by its prefix, for a scalar's adjoint.)
extern __device__ double __enzyme_autodiff_scalar(void *, ...);

#ifdef TAPE_RESERVE
extern "C" __device__ const unsigned long long adcc_device_tape_bytes =
    TAPE_RESERVE;
#endif

// p(x) = c_0 x^(n-1) + ... + c_(n-1) by Horner's rule: n trips.
__host__ __device__ double horner(const double *c, const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; ++k)
    s = s * x[0] + c[k];
  return s;
}

// y_0 = x, y_(k+1) = sin(1.3 y_k) + 0.25 y_k, n steps; a while loop.
__host__ __device__ double chain(double x, int n) {
  double y = x;
  int k = 0;
  while (k < n) {
    y = sin(1.3 * y) + 0.25 * y;
    ++k;
  }
  return y;
}

// r_0 = x, r_k = sin(r_(k-1)) x + 0.1: recursion n deep. Its sweeps are
// functions of their own, whose records go to a tape in the gradient's
// frame, passed down the recursion.
__host__ __device__ double nest(double x, int n) {
  if (n <= 0)
    return x;
  return sin(nest(x, n - 1)) * x + 0.1;
}

__global__ void tangents(const double *x, const int *n, double *t,
                         double *tnest, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  t[i] = __enzyme_fwddiff((void *)chain, x[i], 1.0, n[i]);
  tnest[i] = __enzyme_fwddiff((void *)nest, x[i], 1.0, n[i]);
}

__global__ void gradients(const double *c, double *dc, const double *x,
                          double *dx, const int *n, double *dchain,
                          double *dnest, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  __enzyme_autodiff((void *)horner, c, dc, x + i, dx + i, n[i]);
  dchain[i] = __enzyme_autodiff_scalar((void *)chain, x[i], n[i]);
  dnest[i] = __enzyme_autodiff_scalar((void *)nest, x[i], n[i]);
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

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    puts("no CUDA device: GPU numerical test not run");
    return 77;
  }
  const int count = 256, terms = 12;
  std::vector<double> x(count), t(count), dx(count, 0.0), dchain(count),
      tnest(count), dnest(count);
  std::vector<int> n(count);
  for (int i = 0; i < count; ++i) {
    x[i] = 0.3 + 0.7 * i / count;
    // (Up to 52 steps of chain: 52 records of 16 bytes, beyond 256.)
    n[i] = 1 + i % terms + (i % 64 == 63 ? 40 : 0);
  }
  double c[64], dc[64] = {};
  for (int k = 0; k < 64; ++k)
    c[k] = 0.5 - 0.07 * k;
  double *dX, *dT, *dDX, *dC, *dDC, *dDChain, *dTNest, *dDNest;
  int *dN;
  cudaMalloc(&dX, count * sizeof(double));
  cudaMalloc(&dT, count * sizeof(double));
  cudaMalloc(&dDX, count * sizeof(double));
  cudaMalloc(&dDChain, count * sizeof(double));
  cudaMalloc(&dTNest, count * sizeof(double));
  cudaMalloc(&dDNest, count * sizeof(double));
  cudaMalloc(&dN, count * sizeof(int));
  cudaMalloc(&dC, sizeof c);
  cudaMalloc(&dDC, sizeof dc);
  cudaMemcpy(dX, x.data(), count * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dDX, dx.data(), count * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dN, n.data(), count * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dC, c, sizeof c, cudaMemcpyHostToDevice);
  cudaMemcpy(dDC, dc, sizeof dc, cudaMemcpyHostToDevice);
  tangents<<<count / 64, 64>>>(dX, dN, dT, dTNest, count);
  gradients<<<count / 64, 64>>>(dC, dDC, dX, dDX, dN, dDChain, dDNest, count);
  cudaError_t status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    printf("FAIL: kernel launch: %s\n", cudaGetErrorString(status));
    return 1;
  }
  cudaMemcpy(t.data(), dT, count * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(dx.data(), dDX, count * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(dchain.data(), dDChain, count * sizeof(double),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(tnest.data(), dTNest, count * sizeof(double),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(dnest.data(), dDNest, count * sizeof(double),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(dc, dDC, sizeof dc, cudaMemcpyDeviceToHost);
  double want_c[64] = {};
  for (int i = 0; i < count; ++i) {
    // Horner: dp/dx = sum_k c_k (n-1-k) x^(n-2-k), dp/dc_k = x^(n-1-k).
    double px = 0;
    for (int k = 0; k < n[i]; ++k) {
      int e = n[i] - 1 - k;
      if (e > 0)
        px += c[k] * e * pow(x[i], e - 1);
      want_c[k] += pow(x[i], e);
    }
    close("horner dx", i, dx[i], px, 1e-11);
    // chain: the product of the steps' derivatives 1.3 cos(1.3 y) + 0.25.
    double y = x[i], d = 1;
    for (int k = 0; k < n[i]; ++k) {
      d *= 1.3 * cos(1.3 * y) + 0.25;
      y = sin(1.3 * y) + 0.25 * y;
    }
    close("chain reverse", i, dchain[i], d, 1e-10);
    close("chain forward", i, t[i], dchain[i], 1e-12);
    double h = 1e-6;
    double fd = (chain(x[i] + h, n[i]) - chain(x[i] - h, n[i])) / (2 * h);
    close("chain central difference", i, dchain[i], fd, 1e-6);
    // nest: dr_k = cos(r_(k-1)) dr_(k-1) x + sin(r_(k-1)).
    double r = x[i], dr = 1;
    for (int k = 0; k < n[i]; ++k) {
      dr = cos(r) * dr * x[i] + sin(r);
      r = sin(r) * x[i] + 0.1;
    }
    close("nest reverse", i, dnest[i], dr, 1e-10);
    close("nest forward", i, tnest[i], dnest[i], 1e-12);
    fd = (nest(x[i] + h, n[i]) - nest(x[i] - h, n[i])) / (2 * h);
    close("nest central difference", i, dnest[i], fd, 1e-6);
  }
  for (int k = 0; k < 64; ++k)
    close("horner dc", k, dc[k], want_c[k], 1e-11);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
#ifdef TAPE_RESERVE
  puts("FAIL: the tape's reserve of TAPE_RESERVE bytes did not overflow");
  return 1;
#endif
  puts("ok");
  return 0;
}
