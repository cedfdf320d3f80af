// Pointers that a CUDA launch in differentiated host code reads from the
// data of its pointer arguments beyond the fields one level down: at an
// offset known only at run time (`rows[j]`, j = i % 2) and two levels down
// (`c->inner->a`). The launch's derivative follows the kernel's pointer
// reads through the arguments' data before the derivative kernels run
// (device/LaunchPointers.h, runtime/lib/gpu_launch_graph.c):
//
// - without -D: rows[0] == rows[1] with shadow rows (drows[0] == drows[1]),
//   written through rows[j], read through rows[1 - j]; c->inner->a ==
//   c->inner->b with one shadow array; a table of coefficients read through
//   rows of constants (null shadows, only read) and two levels down: the
//   gradient against central differences and the analytic value, the
//   tangent against the gradient.
// - -DROWS: drows[0] = drows[1] = null (issue 35: the gradient was 0
//   without a word); the launch stops naming the kernel and the rows.
// - -DINNER: the inner shadow struct's a and b null; the launch stops.
// - -DINNER_READBACK: inner->a with a null shadow written and read back.
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

struct Inner {
  double *a, *b;
};

struct Outer {
  const double *const *tables; // rows of constants
  Inner *inner;
};

// out[i] = 2 (rows[1 - j][i] + tables[j][i % K]) + 3 inner->b[i]
//   with rows[j][i] = x_i^2, inner->a[i] = x_i^3 (a == b, rows[0] == rows[1]).
__global__ void graph(double *const *rows, const Outer *c, const double *x,
                      double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i % 2;
  rows[j][i] = x[i] * x[i];
  c->inner->a[i] = x[i] * x[i] * x[i];
#ifdef INNER_READBACK
  double back = c->inner->a[i];
#else
  double back = c->inner->b[i];
#endif
  out[i] = 2 * (rows[1 - j][i] + c->tables[j][i % K]) + 3 * back;
}

double loss(double *const *rows, const Outer *c, const double *x,
            double *out) {
  graph<<<N / Block, Block>>>(rows, c, x, out);
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
  double *buf = managed<double>(N), *dbuf = managed<double>(N);
  double *cube = managed<double>(N), *dcube = managed<double>(N);
  double *t0 = managed<double>(K), *t1 = managed<double>(K);
  double *x = managed<double>(N), *dx = managed<double>(N);
  double *out = managed<double>(N), *dout = managed<double>(N);
  for (int k = 0; k < K; ++k) {
    t0[k] = 0.5 + 0.2 * k;
    t1[k] = -0.3 + 0.1 * k;
  }
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.5 * sin(0.31 * i);
  double **rows = managed<double *>(2), **drows = managed<double *>(2);
  rows[0] = rows[1] = buf;
  drows[0] = drows[1] = dbuf;
  const double **tables = managed<const double *>(2),
               **dtables = managed<const double *>(2);
  tables[0] = t0;
  tables[1] = t1; // (dtables: null shadows, only read)
  Inner *in = managed<Inner>(1), *din = managed<Inner>(1);
  *in = {cube, cube};
  *din = {dcube, dcube};
  Outer *c = managed<Outer>(1), *dc = managed<Outer>(1);
  *c = {tables, in};
  *dc = {dtables, din};
#if defined(ROWS)
  drows[0] = drows[1] = nullptr;
#elif defined(INNER)
  din->a = din->b = nullptr;
#elif defined(INNER_READBACK)
  in->b = managed<double>(N);
  din->a = din->b = nullptr;
#endif
  __enzyme_autodiff((void *)loss, enzyme_dup, rows, drows, enzyme_dup, c, dc,
                    enzyme_dup, x, dx, enzyme_dup, out, dout);
  const double h = 1e-6;
  for (int i : {0, 1, 7, 31, 32, 100, 127}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(rows, c, x, out);
    x[i] = keep - h;
    double down = loss(rows, c, x, out);
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h));
    close("dx analytic", i, dx[i],
          (1 + i % 3) * (4 * x[i] + 9 * x[i] * x[i]));
  }
  double *tx = managed<double>(N);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = cos(0.1 * i);
    want += tx[i] * dx[i];
    dout[i] = dbuf[i] = dcube[i] = 0;
  }
  double tv = __enzyme_fwddiff((void *)loss, enzyme_dup, rows, drows,
                               enzyme_dup, c, dc, enzyme_dup, x, tx,
                               enzyme_dup, out, dout);
  close("forward dx.v", 0, tv, want);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("dx[1] = %.12g\nok\n", dx[1]);
  return 0;
}
