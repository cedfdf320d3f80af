// Adjoint sums are contracted into llvm.fmuladd as clang contracts the
// user's expressions (-ffp-contract=on, its default, or fast), once the
// reverse sweep is simplified: dx[i] += (2 x[i]) x[i+1] is one multiply-add
// that keeps the sum's reassoc nsz. -ffp-contract=off contracts nothing,
// and no adcc metadata is left in the output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ON
// RUN: %adcc -O2 -ffp-contract=fast -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ON
// RUN: %adcc -O2 -ffp-contract=off -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// RUN: %adcc -O0 %s -o %t/o0 && %t/o0 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 %s -o %t/o2 && %t/o2 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 -march=native %s -o %t/native && %t/native | FileCheck %s --check-prefix=OUT
// ON-LABEL: define {{.*}} @grad(
// ON: call reassoc nsz double @llvm.fmuladd.f64(
// ON-NOT: adcc.adjoint.sum
// OFF-LABEL: define {{.*}} @grad(
// OFF-NOT: fmuladd
// OFF: ret void
// OUT: dx 1.5 6.25 12.25 4
#include <stdio.h>
extern int enzyme_const;
void __enzyme_autodiff(void *, ...);
static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++)
    s += x[i] * x[i] * x[i + 1];
  return s;
}
void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, n);
}
int main(void) {
  // d/dx[j] = 2 x[j] x[j+1] + x[j-1]^2 (the terms that exist); exact here.
  double x[4] = {0.5, 1.5, 2.0, 2.5}, dx[4] = {0};
  grad(x, dx, 4);
  printf("dx %g %g %g %g\n", dx[0], dx[1], dx[2], dx[3]);
  return 0;
}
