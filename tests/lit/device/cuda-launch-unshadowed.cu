// CUDA's own launch in differentiated host code, given a pointer without a
// shadow (enzyme_const) where the kernel writes through it: the
// derivative would lose what the kernel writes there. Where the source
// shows the kernel writing through the parameter itself (`y[i] = ...`,
// `*p += ...`, `s->x = ...`), it is a located error at the launch, in both
// modes, at -O0 and -O2; a parameter the kernel only reads (c), or writes
// through a copy the check does not follow (q, moved), compiles, and the
// launch's run-time check stops the program where it has no shadow
// (ctest gpu.emulated_const_pointers_written).
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-host-only -c %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-host-only -c %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-host-only -c %s -o /dev/null -Wno-unknown-cuda-version -DGOOD
// CHECK-NOT: error:
// CHECK-DAG: cuda-launch-unshadowed.cu:[[@LINE+30]]:3: error: cannot differentiate 'loss(double const*, double*, double*)' in reverse mode: the kernel launch (<<<...>>>) of 'k(double const*, double*, double*)' is given a pointer without a shadow (a pointer whose data the derivative treats as constant) as its argument 2, and the kernel writes through it
// CHECK-DAG: cuda-launch-unshadowed.cu:[[@LINE+29]]:3: error: cannot differentiate 'loss(double const*, double*, double*)' in forward mode: the kernel launch (<<<...>>>) of 'k(double const*, double*, double*)' is given a pointer without a shadow
// CHECK-DAG: cuda-launch-unshadowed.cu:[[@LINE+33]]:3: error: cannot differentiate 'loss_member(P*, double const*)' in reverse mode: the kernel launch (<<<...>>>) of 'member(P*, double const*)' is given a pointer without a shadow (a pointer whose data the derivative treats as constant) as its argument 1
// CHECK-NOT: error:

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;

__global__ void k(const double *c, double *y, double *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = c[i] * y[i];
  double *moved = q;
  moved[i] = c[i];
}

struct P {
  double x;
};
__global__ void member(P *p, const double *c) {
  p->x *= c[0];
}

#ifdef GOOD
#define Y_ARGS enzyme_dup, y, dy
#else
#define Y_ARGS enzyme_const, y
#endif

double loss(const double *c, double *y, double *q) {
  k<<<1, 32>>>(c, y, q);
  return y[0];
}

double loss_member(P *p, const double *c) {
  member<<<1, 1>>>(p, c);
  return p->x;
}

void grad(const double *c, double *dc, double *y, double *dy, double *q,
          P *p, P *dp) {
  __enzyme_autodiff((void *)loss, enzyme_dup, c, dc, Y_ARGS, enzyme_const, q);
  __enzyme_fwddiff((void *)loss, enzyme_dup, c, dc, Y_ARGS, enzyme_const, q);
#ifdef GOOD
  __enzyme_autodiff((void *)loss_member, enzyme_dup, p, dp, enzyme_dup, c,
                    dc);
#else
  __enzyme_autodiff((void *)loss_member, enzyme_const, p, enzyme_dup, c, dc);
#endif
}
