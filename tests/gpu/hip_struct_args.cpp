// The HIP form of gpu_struct_args.cu and gpu_const_pointers.cu: kernels
// that take structs of pointers and sizes by value (AMDGPU passes them by
// reference to the kernel's arguments: byref), one the host passes in
// memory, one in registers, and a table of coefficients passed without a
// shadow (enzyme_const), which the kernel only reads. The gradient against
// central differences, the tangent against the gradient. Compiled without
// HIP's headers (-nogpuinc); runs on the grid emulation (run-emulated.sh
// --hip), or where HIP's runtime and a GPU are present.
#include <adcc/kernels.hpp>

#include <cmath>
#include <cstdio>

extern "C" {
hipError_t hipMallocManaged(void **, std::size_t, unsigned);
hipError_t hipGetDeviceCount(int *);
__device__ double __ocml_sin_f64(double);
}
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

constexpr int N = 256, Block = 64;

struct Fields { // (in memory)
  const double *x;
  double *y;
  const int *m;
  int n;
};
struct Out { // (16 bytes: in registers)
  double *z;
  int n;
};

__device__ inline int globalId() {
  return __builtin_amdgcn_workgroup_id_x() * Block +
         __builtin_amdgcn_workitem_id_x();
}

// y[i] = a x[i]^2 x[i+1] c[m[i]] + m[i]
__global__ void axpy(Fields f, double a, const double *c) {
  int i = globalId();
  if (i >= f.n)
    return;
  f.y[i] = a * f.x[i] * f.x[i] * f.x[i + 1 < f.n ? i + 1 : 0] * c[f.m[i]] +
           f.m[i];
}

// z[i] = b sin(y[i + shift]) y[i]
__global__ void mix(double b, Out o, const double *y, int shift) {
  int i = globalId();
  if (i < o.n)
    o.z[i] = b * __ocml_sin_f64(y[(i + shift) % o.n]) * y[i];
}

double loss(const Fields *f, const Out *o, const double *c, double a) {
  axpy<<<N / Block, Block>>>(*f, a, c);
  mix<<<N / Block, Block>>>(a + 0.5, *o, f->y, 3);
  hipDeviceSynchronize();
  double s = 0;
  for (int i = 0; i < f->n; ++i)
    s += (i % 3 + 1) * f->y[i] + 0.5 * o->z[i];
  return s;
}

static int failures = 0;

static void close(const char *what, int i, double got, double want) {
  double scale = std::fabs(want) > 1 ? std::fabs(want) : 1;
  if (std::fabs(got - want) <= 1e-6 * scale)
    return;
  std::printf("FAIL %s[%d] = %.17g, expected %.17g\n", what, i, got, want);
  ++failures;
}

template <typename T> T *managed(int n) {
  T *p = nullptr;
  if (hipMallocManaged((void **)&p, n * sizeof(T), 1) != 0) {
    std::puts("FAIL: hipMallocManaged");
    std::exit(1);
  }
  for (int i = 0; i < n; ++i)
    p[i] = 0;
  return p;
}

int main() {
  int devices = 0;
  if (hipGetDeviceCount(&devices) != 0 || devices == 0) {
    std::puts("no HIP device: GPU numerical test not run");
    return 77;
  }
  double *x = managed<double>(N), *dx = managed<double>(N);
  double *y = managed<double>(N), *dy = managed<double>(N);
  double *z = managed<double>(N), *dz = managed<double>(N);
  double *c = managed<double>(4);
  int *m = managed<int>(N), *dm = managed<int>(N);
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.6 * std::sin(0.37 * i);
    m[i] = i % 4;
  }
  for (int k = 0; k < 4; ++k)
    c[k] = 1.0 - 0.2 * k;
  Fields f = {x, y, m, N}, df = {dx, dy, dm, N};
  Out o = {z, N}, dO = {dz, N};
  const double a = 0.9, h = 1e-6;
  double da = __enzyme_autodiff((void *)loss, enzyme_dup, &f, &df,
                                enzyme_dup, &o, &dO, enzyme_const, c, a);
  close("da", 0, da,
        (loss(&f, &o, c, a + h) - loss(&f, &o, c, a - h)) / (2 * h));
  for (int i : {0, 1, 63, 64, 200, 255}) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(&f, &o, c, a);
    x[i] = keep - h;
    double down = loss(&f, &o, c, a);
    x[i] = keep;
    close("dx", i, dx[i], (up - down) / (2 * h));
  }
  double *tx = managed<double>(N);
  for (int i = 0; i < N; ++i)
    dy[i] = dz[i] = 0;
  Fields tf = {tx, dy, dm, N};
  double ta = __enzyme_fwddiff((void *)loss, enzyme_dup, &f, &tf, enzyme_dup,
                               &o, &dO, enzyme_const, c, a, 1.0);
  close("forward da", 0, ta, da);
  double want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = std::cos(0.1 * i);
    want += tx[i] * dx[i];
  }
  double tv = __enzyme_fwddiff((void *)loss, enzyme_dup, &f, &tf, enzyme_dup,
                               &o, &dO, enzyme_const, c, a, 0.0);
  close("forward dx.v", 0, tv, want);
  if (failures) {
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  std::printf("da = %.12g, dx[1] = %.12g\nok\n", da, dx[1]);
  return 0;
}
