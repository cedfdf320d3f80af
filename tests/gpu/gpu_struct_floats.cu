// Kernels that take a struct with floating-point members by value,
// launched with <<<...>>> in differentiated host code: the members are the
// kernel's active scalars. One struct the host passes in memory (a double,
// a float and pointers, byval), one in registers (a double and an int:
// pieces), one with an array of doubles beside its pointers. The tangent
// kernel reads the members' tangents from the tangent struct; the reverse
// kernel sums each member's adjoint over all threads, and the launch's
// derivative adds it into the host's adjoint of that member. Checked: the
// gradient (members and arrays) against central differences, the tangents
// against the gradient. Runs on a GPU, or on the grid emulation
// (tests/gpu/emulation); exits 77, saying why, without either.
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

constexpr int N = 256, Block = 64;

// (More than 16 bytes: the host passes it in memory.)
struct Params {
  double a;
  const double *x;
  double *y;
  float w;
  int n;
};

// y[i] = a x[i]^2 + w x[i] x[i+1]
__global__ void poly(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n)
    return;
  double x = p.x[i];
  p.y[i] = p.a * x * x + p.w * x * p.x[i + 1 < p.n ? i + 1 : 0];
}

// (16 bytes: a double and an int, in registers.)
struct Scale {
  double c;
  int shift;
};

// z[i] = c sin(y[i + shift]) y[i]
__global__ void mix(Scale s, const double *y, double *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = s.c * sin(y[(i + s.shift) % n]) * y[i];
}

// (An array of coefficients beside the pointers.)
struct Cubic {
  double k[3];
  const double *z;
  double *u;
  int n;
};

// u[i] = k0 + k1 z[i] + k2 z[i]^2
__global__ void cubic(Cubic c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < c.n)
    c.u[i] = c.k[0] + c.z[i] * (c.k[1] + c.k[2] * c.z[i]);
}

double loss(const Params *p, const Scale *s, const Cubic *c, double *z) {
  poly<<<N / Block, Block>>>(*p);
  mix<<<N / Block, Block>>>(*s, p->y, z, p->n);
  cubic<<<N / Block, Block>>>(*c);
  cudaDeviceSynchronize();
  double r = 0;
  for (int i = 0; i < p->n; ++i)
    r += (i % 3 + 1) * p->y[i] + 0.5 * z[i] + 0.25 * c->u[i];
  return r;
}

static int failures = 0;

static void close(const char *what, int i, double got, double want,
                  double tol = 1e-6) {
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

struct Problem {
  Params p;
  Scale s;
  Cubic c;
  double *z;
  double value() { return loss(&p, &s, &c, z); }
};

// Central differences of the loss in the member *m.
template <typename T> double central(Problem &P, T *m, double h) {
  T keep = *m;
  *m = keep + h;
  double up = P.value();
  *m = keep - h;
  double down = P.value();
  *m = keep;
  return (up - down) / (double((keep + h) - (keep - h)));
}

// The tangent of the loss at P in the directions tp, ts, tc (their
// pointers: tx, then the tangent arrays, zeroed).
static double tangent(Problem &P, double *tx, double *dy, double *dz,
                      double *du, Params tp, Scale ts, Cubic tc) {
  for (int i = 0; i < N; ++i)
    dy[i] = dz[i] = du[i] = 0;
  tp.x = tx, tp.y = dy, tp.n = N;
  tc.z = dz, tc.u = du, tc.n = N;
  return __enzyme_fwddiff((void *)loss, enzyme_dup, &P.p, &tp, enzyme_dup,
                          &P.s, &ts, enzyme_dup, &P.c, &tc, enzyme_dup, P.z,
                          dz);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    puts("no CUDA device: GPU numerical test not run");
    return 77;
  }
  double *x = managed<double>(N), *dx = managed<double>(N);
  double *y = managed<double>(N), *dy = managed<double>(N);
  double *z = managed<double>(N), *dz = managed<double>(N);
  double *u = managed<double>(N), *du = managed<double>(N);
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.6 * sin(0.37 * i);
  Problem P = {{0.9, x, y, 0.7f, N}, {1.3, 3}, {{0.2, -0.5, 0.8}, z, u, N},
               z};
  Params dp = {0, dx, dy, 0, N};
  Scale ds = {0, 3};
  Cubic dc = {{0, 0, 0}, dz, du, N};
  __enzyme_autodiff((void *)loss, enzyme_dup, &P.p, &dp, enzyme_dup, &P.s,
                    &ds, enzyme_dup, &P.c, &dc, enzyme_dup, z, dz);
  const double h = 1e-6;
  close("dp.a", 0, dp.a, central(P, &P.p.a, h));
  // (A float member: its differences at float's resolution.)
  close("dp.w", 0, dp.w, central(P, &P.p.w, 1e-3f), 1e-3);
  close("ds.c", 0, ds.c, central(P, &P.s.c, h));
  for (int k = 0; k < 3; ++k)
    close("dc.k", k, dc.k[k], central(P, &P.c.k[k], h));
  for (int i : {0, 1, 63, 64, 200, 255}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = P.value();
    x[i] = keep - h;
    double down = P.value();
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h));
  }
  // Forward: the tangent of each member alone, then of x in direction v,
  // against the gradient.
  double *tx = managed<double>(N);
  close("forward a", 0, tangent(P, tx, dy, dz, du, {1, 0, 0, 0, 0}, {0, 3}, {}), dp.a);
  close("forward w", 0, tangent(P, tx, dy, dz, du, {0, 0, 0, 1, 0}, {0, 3}, {}), dp.w, 1e-5);
  close("forward c", 0, tangent(P, tx, dy, dz, du, {}, {1, 3}, {}), ds.c);
  for (int k = 0; k < 3; ++k) {
    Cubic tc = {};
    tc.k[k] = 1;
    close("forward k", k, tangent(P, tx, dy, dz, du, {}, {0, 3}, tc), dc.k[k]);
  }
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = cos(0.1 * i);
    want += tx[i] * dx[i];
  }
  close("forward dx.v", 0, tangent(P, tx, dy, dz, du, {}, {0, 3}, {}), want);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("da = %.12g, dw = %.12g, dc = %.12g, dk = %.12g %.12g %.12g\nok\n",
         dp.a, dp.w, ds.c, dc.k[0], dc.k[1], dc.k[2]);
  return 0;
}
