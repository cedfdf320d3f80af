// Values with derivatives written through a null shadow pointer (a shadow
// struct the caller zeroes) and read back through calls and copies that
// device code's check follows: the pointer handed to a function that
// stores it where it is written through, a chain of local copies, the
// struct handed to a function that reads it back, a function that writes
// through the struct or the pointer it is given. At -O0 each is a located
// error (lit device/null-shadow-calls.c: was a silent 0 here); from -O1 the
// optimizer forwards the write to the read, and the gradient (reverse and
// forward mode) must equal the analytic 2 x k and central differences of
// the function run on the device. Runs on a GPU, or on the grid emulation
// (tests/gpu/emulation); exits 77, saying why, without either.
// 'branches': two requests given one such shadow struct, each in a branch
// of its own (the second request, a C++ call, was taken for a call that
// may fill the shadow: no guards, and at -O2 thread 0's branch was deleted
// by the optimizer; e2e null_shadow_requests_cpp.cpp on the host).
#include <cmath>
#include <cstdio>

extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ int enzyme_dup, enzyme_out;

struct S {
  double *p;
  double k;
};
struct T {
  double *p;
};

__device__ void keep(T *t, double *p) { t->p = p; }
__device__ double stored(S *s, T *t, double x) {
  keep(t, s->p);
  t->p[0] = x * x;
  return s->p[0] * s->k;
}
__device__ double deep(S *s, T *t, double x) {
  double *q = s->p, *r = q, *u = r, *v = u, *w = v, *y = w, *z = y, *a = z,
         *b = a, *c = b;
  c[0] = x * x;
  return s->p[0] * s->k;
}
__device__ double get(S *s) { return s->p[0]; }
__device__ double read_by_callee(S *s, T *t, double x) {
  s->p[0] = x * x;
  return get(s) * s->k;
}
__device__ void set(S *s, double x) { s->p[0] = x * x; }
__device__ double written_by_callee(S *s, T *t, double x) {
  set(s, x);
  return s->p[0] * s->k;
}
__device__ void setp(double *p, double x) { p[0] = x * x; }
__device__ double written_through_argument(S *s, T *t, double x) {
  setp(s->p, x);
  return s->p[0] * s->k;
}

constexpr int Threads = 32, Fns = 5;
constexpr double H = 1e-5;

// Per thread and function: the gradient, the tangent, the values at x +- H.
#define ONE(f, n)                                                              \
  {                                                                            \
    double *o = out + 4 * (Fns * i + n), k = 1.5 + 0.01 * i;                   \
    {                                                                          \
      S s = {buf + 4 * i, k}, ds = {0, 0};                                     \
      T t = {0}, dt = {0};                                                     \
      o[0] = __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_dup, &t, \
                               &dt, enzyme_out, x);                            \
    }                                                                          \
    {                                                                          \
      S s = {buf + 4 * i, k}, ds = {0, 0};                                     \
      T t = {0}, dt = {0};                                                     \
      o[1] = __enzyme_fwddiff((void *)f, enzyme_dup, &s, &ds, enzyme_dup, &t,  \
                              &dt, x, 1.0);                                    \
    }                                                                          \
    S s = {buf + 4 * i, k};                                                    \
    T t = {0};                                                                 \
    o[2] = f(&s, &t, x + H);                                                   \
    o[3] = f(&s, &t, x - H);                                                   \
  }

__global__ void grads(double *buf, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = 0.3 + 0.05 * i;
  ONE(stored, 0)
  ONE(deep, 1)
  ONE(read_by_callee, 2)
  ONE(written_by_callee, 3)
  ONE(written_through_argument, 4)
}

__device__ double h(S *s, T *, double x) { return s->p[0] * x * s->k; }

__global__ void branches(double *buf, double *out, double x) {
  int i = threadIdx.x;
  S s = {buf + 4 * i, 1.5}, ds = {0, 0};
  T t = {0}, dt = {0};
  if (i % 2 == 0)
    out[i] = __enzyme_autodiff((void *)h, enzyme_dup, &s, &ds, enzyme_dup, &t,
                               &dt, enzyme_out, x);
  if (i % 2 == 1)
    out[i] = __enzyme_fwddiff((void *)h, enzyme_dup, &s, &ds, enzyme_dup, &t,
                              &dt, x, 1.0);
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
  const char *names[Fns] = {"stored", "deep", "read_by_callee",
                            "written_by_callee", "written_through_argument"};
  int failures = 0;
  for (int i = 0; i < Threads; ++i)
    for (int n = 0; n < Fns; ++n) {
      const double *o = out + 4 * (Fns * i + n);
      double x = 0.3 + 0.05 * i, k = 1.5 + 0.01 * i, want = 2 * x * k;
      double central = (o[2] - o[3]) / (2 * H);
      // (Comparisons written so that a NaN fails.)
      if (!(fabs(o[0] - want) <= 1e-12) || !(fabs(o[1] - want) <= 1e-12) ||
          !(fabs(central - want) <= 1e-6)) {
        printf("FAIL %s, thread %d: gradient %.17g, tangent %.17g, central "
               "differences %.17g, expected %.17g\n",
               names[n], i, o[0], o[1], central, want);
        ++failures;
      }
    }
  // d/dx of buf[4i] x k: buf[4i] k.
  for (int i = 0; i < Threads; ++i)
    buf[4 * i] = 0.25 + i;
  branches<<<1, Threads>>>(buf, out, 0.7);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    puts("FAIL: the kernel 'branches'");
    return 1;
  }
  for (int i = 0; i < Threads; ++i)
    if (!(fabs(out[i] - (0.25 + i) * 1.5) <= 1e-12)) {
      printf("FAIL branches, thread %d: %.17g, expected %.17g\n", i, out[i],
             (0.25 + i) * 1.5);
      ++failures;
    }
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("branches: h'(0.7) on thread 0 = %.12g\nok\n", out[0]);
  return 0;
}
