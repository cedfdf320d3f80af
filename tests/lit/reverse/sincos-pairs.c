// The adjoint of sin(a) needs cos(a): once both sweeps of the gradient are
// one function, the reverse sweep's cos(a) is moved next to the primal's
// sin(a), where x86's code generator computes both by one call of sincos
// (optimize/SinCosPairs.cpp). Before, the gradient called sin and cos
// (about 36 more instructions per call than the hand-written gradient of
// bench/smallcalls' small-expr, which calls sincos).
// -ffast-math: sin and cos are the llvm.sin/llvm.cos intrinsics (no errno).
// RUN: %adcc -O2 -ffast-math -S %s -o - | FileCheck %s
#include <math.h>
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

static double f(const double *x) {
  double a = x[0] * x[1] + x[2];
  double b = sin(a) * exp(-0.5 * x[0] * x[0]);
  double c = (x[1] - x[2]) / (1.0 + x[0] * x[0] + x[2] * x[2]);
  double d = sqrt(1.0 + b * b) + c * c * x[1];
  return log(1.0 + d * d) + a * c - tanh(b * x[2]);
}

// CHECK-LABEL: grad:
// CHECK-NOT: {{call.*[^n]cos(@PLT)?$}}
// CHECK-NOT: {{call.*sin(@PLT)?$}}
// CHECK: call{{.*}}sincos
// CHECK-NOT: {{call.*[^n]cos(@PLT)?$}}
// CHECK-NOT: {{call.*sin(@PLT)?$}}
// CHECK: .cfi_endproc
void grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}
