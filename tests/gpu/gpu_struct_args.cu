// Kernels that take a struct of pointers and sizes by value, launched
// with <<<...>>> in differentiated host code: one the host passes in
// memory (byval), one in registers (16 bytes: a pointer and an int, as
// pieces); the host function takes the struct's address, and its
// derivative a shadow struct whose pointers are the shadows (enzyme_dup). The gradient against central differences, the
// tangent against the gradient. With -DMISSING, a pointer of the shadow
// struct is null: the derivative of the launch stops with the runtime's
// message. Runs on a GPU, or on the grid emulation (tests/gpu/emulation);
// exits 77, saying why, without either.
#include <cmath>
#include <cstdio>
#include <cstdlib>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

constexpr int N = 256, Block = 64;

// (Larger than 16 bytes: the host passes it in memory.)
struct Fields {
  const double *x;
  double *y;
  const int *m;
  int n;
};

// y[i] = a x[i]^2 x[i+1] + m[i]
__global__ void axpy(Fields f, double a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= f.n)
    return;
  f.y[i] = a * f.x[i] * f.x[i] * f.x[i + 1 < f.n ? i + 1 : 0] + f.m[i];
}

// (16 bytes: the host passes it as a pointer and an int.)
struct Out {
  double *z;
  int n;
};

// z[i] = b sin(x[i + shift]) x[i] (x: axpy's y), the struct after a number
// and before a pointer and an int.
__global__ void mix(double b, Out o, const double *x, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < o.n)
    o.z[i] = b * sin(x[(i + shift) % o.n]) * x[i];
}

double loss(const Fields *f, const Out *o, double a) {
  axpy<<<N / Block, Block>>>(*f, a);
  mix<<<N / Block, Block>>>(a + 0.5, *o, f->y, 3);
  cudaDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < f->n; ++i)
    s += (i % 3 + 1) * f->y[i] + 0.5 * o->z[i];
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
  int *m = managed<int>(N), *dm = managed<int>(N);
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.6 * sin(0.37 * i);
    m[i] = i % 4;
  }
  double *z = managed<double>(N), *dz = managed<double>(N);
  Out o = {z, N}, dO = {dz, N};
  Fields f = {x, y, m, N};
#ifdef MISSING
  Fields df = {dx, dy, nullptr, N};
#else
  Fields df = {dx, dy, dm, N};
#endif
  const double a = 0.9, h = 1e-6;
  double da = __enzyme_autodiff((void *)loss, enzyme_dup, &f, &df,
                                enzyme_dup, &o, &dO, a);
  close("da", 0, da, (loss(&f, &o, a + h) - loss(&f, &o, a - h)) / (2 * h));
  for (int i : {0, 1, 63, 64, 200, 255}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(&f, &o, a);
    x[i] = keep - h;
    double down = loss(&f, &o, a);
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h));
  }
  // Forward: the tangent of a, then of x in direction v.
  double *tx = managed<double>(N);
  for (int i = 0; i < N; ++i)
    dy[i] = dz[i] = 0;
  Fields tf = {tx, dy, dm, N};
  double ta = __enzyme_fwddiff((void *)loss, enzyme_dup, &f, &tf, enzyme_dup,
                               &o, &dO, a, 1.0);
  close("forward da", 0, ta, da);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = cos(0.1 * i);
    want += tx[i] * dx[i];
  }
  double tv = __enzyme_fwddiff((void *)loss, enzyme_dup, &f, &tf, enzyme_dup,
                               &o, &dO, a, 0.0);
  close("forward dx.v", 0, tv, want);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("da = %.12g, dx[1] = %.12g\nok\n", da, dx[1]);
  return 0;
}
