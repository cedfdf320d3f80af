// The fields of a struct that a CUDA launch in differentiated host code
// gets by pointer (`const Ctx *c`, pointers in its data), some of them with
// null shadows in the caller's shadow struct. The launch's derivative
// checks them at run time before the derivative kernels run
// (device/LaunchPointers.h, runtime/lib/gpu_launch.c):
//
// - without -D: two fields given one array and one shadow array (written
//   through `a`, read through `b`, at -O0 through stack slots), a table
//   of coefficients whose shadow is null (only read), a scratch array whose
//   shadow is null (written, never read, in an allocation of its own): the
//   gradient against central differences and the analytic value, the
//   tangent against the gradient. Before, -O0 refused the kernel (the
//   compile-time check took `a` written and read back for a null shadow).
// - -DALIASED: `a` and `b` one array, the shadow struct zeroed for them
//   (issue 35: the gradient was 0 without a word); the launch stops naming
//   the kernel and both fields.
// - -DREADBACK: `a` with a null shadow, written and read back; the
//   launch stops.
//
// Runs on a GPU, or on the grid emulation (tests/gpu/emulation); exits 77,
// saying why, without either.
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

constexpr int N = 128, Block = 32, K = 5;

struct Ctx {
  const double *coef;
  double *a, *b;
  double *tmp;
};

__device__ double weight(const Ctx *c, int i) { return c->coef[i % K]; }

// out[i] = (coef[i % K] + x_i) x_i^2 (through a, b = a); tmp[i] = sin x_i.
__global__ void fields(const Ctx *c, const double *x, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double *a = c->a;
  a[i] = x[i] * x[i];
  c->tmp[i] = sin(x[i]);
#ifdef READBACK
  out[i] = (weight(c, i) + x[i]) * c->a[i];
#else
  out[i] = (weight(c, i) + x[i]) * c->b[i];
#endif
}

double loss(const Ctx *c, const double *x, double *out) {
  fields<<<N / Block, Block>>>(c, x, out);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += (1 + i % 3) * out[i];
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
    p[i] = T();
  return p;
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    puts("no CUDA device: GPU numerical test not run");
    return 77;
  }
  double *coef = managed<double>(K), *buf = managed<double>(N),
         *dbuf = managed<double>(N), *tmp = managed<double>(N);
  double *x = managed<double>(N), *dx = managed<double>(N);
  double *out = managed<double>(N), *dout = managed<double>(N);
  for (int k = 0; k < K; ++k)
    coef[k] = 0.5 + 0.2 * k;
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.5 * sin(0.31 * i);
  Ctx *c = managed<Ctx>(1), *dc = managed<Ctx>(1);
  *c = {coef, buf, buf, tmp};
  // (coef and tmp: null shadows)
  *dc = {nullptr, dbuf, dbuf, nullptr};
#if defined(ALIASED)
  dc->a = dc->b = nullptr;
#elif defined(READBACK)
  c->b = managed<double>(N);
  dc->a = dc->b = nullptr;
#endif
  __enzyme_autodiff((void *)loss, enzyme_dup, c, dc, enzyme_dup, x, dx,
                    enzyme_dup, out, dout);
  const double h = 1e-6;
  for (int i : {0, 1, 7, 31, 32, 100, 127}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(c, x, out);
    x[i] = keep - h;
    double down = loss(c, x, out);
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h));
    close("dx analytic", i, dx[i],
          (1 + i % 3) * (2 * coef[i % K] * x[i] + 3 * x[i] * x[i]));
  }
  double *tx = managed<double>(N);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = cos(0.1 * i);
    want += tx[i] * dx[i];
    dout[i] = 0;
    dbuf[i] = 0;
  }
  double tv = __enzyme_fwddiff((void *)loss, enzyme_dup, c, dc, enzyme_dup, x,
                               tx, enzyme_dup, out, dout);
  close("forward dx.v", 0, tv, want);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("dx[1] = %.12g\nok\n", dx[1]);
  return 0;
}
