// The HIP form of gpu_struct_graph.cu (AMDGPU passes the struct by
// reference to the kernel's arguments; at -O0 the kernel copies it into a
// local, which the device compile reads as the parameter). The launch's
// check of null shadows (docs/gpu.md, "Fields with null
// shadows") for the pointers a kernel reads from the data of a pointer
// held in a struct passed by value (`h.in->a`): the struct's members are
// nodes of the kernel's pointer graph below its parameter, read from the
// host's copies of the arguments, and what they point to is walked as for
// pointer arguments. `h.in->a` and `h.in->b` are one array: the kernel
// writes through one and reads through the other. With shadows (the
// shadow Inner's two pointers one shadow array) the gradient is right:
// against central differences and analytic values, the tangent against
// the gradient. With -DNULL_SHADOWS the shadow Inner is zeroed: the
// derivative would lose what the kernel writes and reads back (a gradient
// of x of 1 instead of 2 s x + 1, without a word, before), so the launch
// stops with a message naming the pointers. Compiled without HIP's
// headers (-nogpuinc); runs on the grid emulation (run-emulated.sh --hip),
// or where HIP's runtime and a GPU are present.
#include <adcc/kernels.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

extern "C" {
hipError_t hipMallocManaged(void **, std::size_t, unsigned);
hipError_t hipGetDeviceCount(int *);
}

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

constexpr int N = 128, Block = 64;

struct Inner {
  double *a;
  const double *b;
};

// (24 bytes: the host passes it in memory.)
struct Holder {
  const Inner *in;
  double s;
  int n;
};

// a[i] = x[i]^2; out[i] = s b[i] + x[i], with b == a: s x[i]^2 + x[i].
__global__ void chain(Holder h, const double *x, double *out) {
  int i = __builtin_amdgcn_workgroup_id_x() * Block +
          __builtin_amdgcn_workitem_id_x();
  if (i >= h.n)
    return;
  h.in->a[i] = x[i] * x[i];
  out[i] = h.s * h.in->b[i] + x[i];
}

double loss(const Holder *h, const double *x, double *out) {
  chain<<<N / Block, Block>>>(*h, x, out);
  hipDeviceSynchronize();
  double r = 0;
  for (int i = 0; i < h->n; ++i)
    r += out[i];
  return r;
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
  if (hipMallocManaged((void **)&p, n * sizeof(T), 1) != 0) {
    puts("FAIL: hipMallocManaged");
    std::exit(1);
  }
  for (int i = 0; i < n; ++i)
    p[i] = T();
  return p;
}

int main() {
  int devices = 0;
  if (hipGetDeviceCount(&devices) != 0 || devices == 0) {
    puts("no HIP device: GPU numerical test not run");
    return 77;
  }
  double *x = managed<double>(N), *dx = managed<double>(N);
  double *out = managed<double>(N), *dout = managed<double>(N);
  double *a = managed<double>(N), *da = managed<double>(N);
  for (int i = 0; i < N; ++i)
    x[i] = 0.2 + 0.5 * sin(0.41 * i);
  Inner *in = managed<Inner>(1), *din = managed<Inner>(1);
  *in = {a, a};
#ifndef NULL_SHADOWS
  *din = {da, da};
#endif
  Holder h = {in, 1.7, N}, dh = {din, 0, N};
  for (int i = 0; i < N; ++i)
    dout[i] = 0;
  __enzyme_autodiff((void *)loss, enzyme_dup, &h, &dh, enzyme_dup, x, dx,
                    enzyme_dup, out, dout);
  const double eps = 1e-6;
  double want = 0;
  for (int i = 0; i < N; ++i)
    want += x[i] * x[i];
  close("ds", 0, dh.s, want);
  h.s += eps;
  double up = loss(&h, x, out);
  h.s -= 2 * eps;
  double down = loss(&h, x, out);
  h.s += eps;
  close("ds central", 0, dh.s, (up - down) / (2 * eps));
  for (int i : {0, 1, 63, 64, 127}) {
    close("dx", i, dx[i], 2 * h.s * x[i] + 1);
    double keep = x[i];
    x[i] = keep + eps;
    up = loss(&h, x, out);
    x[i] = keep - eps;
    down = loss(&h, x, out);
    x[i] = keep;
    close("dx central", i, dx[i], (up - down) / (2 * eps));
  }
  // Forward: the tangent of s, then of x in direction v.
  double *tx = managed<double>(N);
  Holder th = {din, 1, N};
  double ts = __enzyme_fwddiff((void *)loss, enzyme_dup, &h, &th, enzyme_dup,
                               x, tx, enzyme_dup, out, dout);
  close("forward s", 0, ts, dh.s);
  want = 0;
  for (int i = 0; i < N; ++i) {
    tx[i] = cos(0.2 * i);
    want += tx[i] * dx[i];
  }
  th.s = 0;
  double tv = __enzyme_fwddiff((void *)loss, enzyme_dup, &h, &th, enzyme_dup,
                               x, tx, enzyme_dup, out, dout);
  close("forward x.v", 0, tv, want);
  if (failures) {
    printf("%d check(s) failed\n", failures);
    return 1;
  }
  printf("ds = %.12g, dx[1] = %.12g\nok\n", dh.s, dx[1]);
  return 0;
}
