// The generated code does not depend on where the compiler's objects lie
// in memory: four compilations give the same IR. (The tape records were
// once ordered by a map keyed by instruction addresses, so that the order
// of the values recorded at the return changed from run to run.)
// RUN: %adcc -O2 -S -emit-llvm %s -o %t.1
// RUN: %adcc -O2 -S -emit-llvm %s -o %t.2
// RUN: %adcc -O2 -S -emit-llvm %s -o %t.3
// RUN: %adcc -O2 -S -emit-llvm %s -o %t.4
// RUN: cmp %t.1 %t.2
// RUN: cmp %t.1 %t.3
// RUN: cmp %t.1 %t.4
// RUN: FileCheck %s < %t.1
#include <math.h>
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

// Values recorded once at the return, per loop exit and per iteration.
static double model(const double *p, const double *x, double *y, int n,
                    int m) {
  double a = p[0] / p[2], b = p[1] / p[2], c = sin(p[3]), d = cos(p[3]);
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = x[i] * a + b;
    for (int j = 0; j < m; j++)
      t = t * c + d * exp(-t * t);
    y[i] = t;
    s += t * t;
  }
  return s * a + log(b * b + 1);
}

void gradient(const double *p, double *dp, const double *x, double *y,
              double *dy, int n, int m) {
  __enzyme_autodiff((void *)model, enzyme_dup, p, dp, enzyme_const, x,
                    enzyme_dup, y, dy, enzyme_const, n, enzyme_const, m);
}
// CHECK-LABEL: define {{.*}}void @gradient(
// CHECK: call ptr @adcc_tape_push(
