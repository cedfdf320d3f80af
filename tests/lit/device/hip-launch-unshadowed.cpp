// HIP's launch in differentiated host code, given a pointer without a
// shadow where the kernel writes through it: a located error at the
// launch, as for CUDA (device/cuda-launch-unshadowed.cu).
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O0 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-host-only -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-host-only -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: hip-launch-unshadowed.cpp:[[@LINE+10]]:3: error: cannot differentiate 'loss(double const*, double*)' in reverse mode: the kernel launch (<<<...>>>) of 'k(double const*, double*)' is given a pointer without a shadow (a pointer whose data the derivative treats as constant) as its argument 2
// CHECK-NOT: error:
#include <adcc/kernels.hpp>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

__global__ void k(const double *c, double *y) { y[0] *= c[0]; }

double loss(const double *c, double *y) {
  k<<<1, 32>>>(c, y);
  return y[0];
}

void grad(const double *c, double *dc, double *y) {
  __enzyme_autodiff((void *)loss, enzyme_dup, c, dc, enzyme_const, y);
}
