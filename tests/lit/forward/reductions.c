// Tangent sums are sums in no particular order (fadd reassoc nsz): the
// tangent of a sum over a loop is a reduction the loop vectorizer takes.
// When only the tangent is wanted, the derivative's loop runs in SIMD lanes
// while the primal's own sum, in the program's order, stays scalar; when the
// primal is returned too, its sum keeps its order and flags (its result is
// the primal's, bit for bit).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O0 %s -o %t/o0 && %t/o0 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 %s -o %t/o2 && %t/o2 | FileCheck %s --check-prefix=OUT
// CHECK-LABEL: define {{.*}} @dot(
// CHECK-NOT: reassoc
// CHECK: {{fadd double|call double @llvm.fmuladd.f64}}
// CHECK-NOT: x double>
// CHECK: ret double
// CHECK-LABEL: define {{.*}} @dot_tangent(
// CHECK: fadd reassoc nsz <{{[0-9]+}} x double>
// CHECK: ret double
// CHECK-LABEL: define {{.*}} @dot_both(
// The primal's sum keeps its order: nothing here is reassociated (the SLP
// vectorizer may pack the primal's and the tangent's sums into one vector,
// with the flags both have).
// CHECK-NOT: reassoc
// CHECK: ret
// OUT: primal 30 tangent 20
// OUT: both 30 20
#include <stdio.h>
typedef struct {
  double primal, tangent;
} dual;
extern int enzyme_dup, enzyme_const, enzyme_primal_return;
double __enzyme_fwddiff(void *, ...);
dual __enzyme_fwddiff_both(void *, ...);

__attribute__((noinline)) double dot(const double *x, const double *y,
                                     int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

__attribute__((noinline)) double dot_tangent(const double *x,
                                             const double *dx,
                                             const double *y, int n) {
  return __enzyme_fwddiff((void *)dot, enzyme_dup, x, dx, enzyme_const, y,
                          enzyme_const, n);
}

__attribute__((noinline)) dual dot_both(const double *x, const double *dx,
                                        const double *y, int n) {
  return __enzyme_fwddiff_both((void *)dot, enzyme_primal_return, enzyme_dup,
                               x, dx, enzyme_const, y, enzyme_const, n);
}

int main(void) {
  // Small integers: every order of the sums gives the same exact result,
  // d(x . y) = dx . y = 4 + 6 + 6 + 4 = 20, x . y = 30.
  double x[4] = {1, 2, 3, 4}, dx[4] = {4, 3, 2, 1}, y[4] = {1, 2, 3, 4};
  printf("primal %g tangent %g\n", dot(x, y, 4), dot_tangent(x, dx, y, 4));
  dual d = dot_both(x, dx, y, 4);
  printf("both %g %g\n", d.primal, d.tangent);
  return 0;
}
