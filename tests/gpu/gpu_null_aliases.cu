// Values with derivatives written through a null shadow pointer (a shadow
// struct the caller zeroes) and read back through another pointer to the
// same data that the optimizer sees is the same from -O1: a pointer a call
// returns (read back, or written through), a function that is not inlined
// writing and reading its argument. At -O0 each is a located error (lit
// device/null-shadow-aliases.c, which also has those that stay errors at
// every level: two fields given one pointer, two arguments); here the
// gradient (reverse and forward mode) must equal the analytic 2 x k and
// central differences of the function run on the device. Before, these gave
// 0 without a word at -O0 (and two fields, two arguments at -O2 too). Runs
// on a GPU, or on the grid emulation (tests/gpu/emulation); exits 77,
// saying why, without either.
#include <cmath>
#include <cstdio>

extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ int enzyme_dup, enzyme_out;

struct S {
  double *p, *q;
  double k;
};

__device__ double *getp(S *s) { return s->p; }
__device__ double returned_read(S *s, double x) {
  s->p[0] = x * x;
  return getp(s)[0] * s->k;
}
__device__ double returned_write(S *s, double x) {
  getp(s)[0] = x * x;
  return s->p[0] * s->k;
}
__device__ __noinline__ double same_f(double *p, double x) {
  p[0] = x * x;
  return p[0];
}
__device__ double same_arg(S *s, double x) { return same_f(s->p, x) * s->k; }

constexpr int Threads = 32, Fns = 3;
constexpr double H = 1e-5;

#define ONE(f, n)                                                              \
  {                                                                            \
    double *o = out + 4 * (Fns * i + n), k = 1.5 + 0.01 * i;                   \
    {                                                                          \
      S s = {buf + 4 * i, buf + 4 * i, k}, ds = {0, 0, 0};                     \
      o[0] = __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_out, x); \
    }                                                                          \
    {                                                                          \
      S s = {buf + 4 * i, buf + 4 * i, k}, ds = {0, 0, 0};                     \
      o[1] = __enzyme_fwddiff((void *)f, enzyme_dup, &s, &ds, x, 1.0);         \
    }                                                                          \
    S s = {buf + 4 * i, buf + 4 * i, k};                                       \
    o[2] = f(&s, x + H);                                                       \
    o[3] = f(&s, x - H);                                                       \
  }

__global__ void grads(double *buf, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = 0.3 + 0.05 * i;
  ONE(returned_read, 0)
  ONE(returned_write, 1)
  ONE(same_arg, 2)
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    puts("no CUDA device: GPU numerical test not run");
    return 77;
  }
  double *buf, *out;
  if (cudaMallocManaged(&buf, 4 * Threads * sizeof(double)) != cudaSuccess ||
      cudaMallocManaged(&out, 4 * Fns * Threads * sizeof(double)) !=
          cudaSuccess) {
    puts("FAIL: cudaMallocManaged");
    return 1;
  }
  grads<<<2, Threads / 2>>>(buf, out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    puts("FAIL: the kernel");
    return 1;
  }
  const char *names[Fns] = {"returned_read", "returned_write", "same_arg"};
  int failures = 0;
  for (int i = 0; i < Threads; ++i)
    for (int n = 0; n < Fns; ++n) {
      const double *o = out + 4 * (Fns * i + n);
      double x = 0.3 + 0.05 * i, k = 1.5 + 0.01 * i, want = 2 * x * k;
      double central = (o[2] - o[3]) / (2 * H);
      if (!(fabs(o[0] - want) <= 1e-12) || !(fabs(o[1] - want) <= 1e-12) ||
          !(fabs(central - want) <= 1e-6)) {
        printf("FAIL %s, thread %d: gradient %.17g, tangent %.17g, central "
               "differences %.17g, expected %.17g\n",
               names[n], i, o[0], o[1], central, want);
        ++failures;
      }
    }
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("same_arg on thread 0: %.12g\nok\n", out[4 * 2]);
  return 0;
}
