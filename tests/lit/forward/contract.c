// Tangent arithmetic is contracted into llvm.fmuladd as clang contracts the
// user's expressions (-ffp-contract=on, its default): the product rule's
// t(x) y + x t(y) is one multiply-add. The primal's own statements, cloned
// into the derivative, stay as they are (t = x * y; t + z: two statements,
// never fused), and -ffp-contract=off contracts nothing.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ON
// RUN: %adcc -O1 -ffp-contract=fast -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ON
// RUN: %adcc -O1 -ffp-contract=off -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// RUN: %adcc -O0 %s -o %t/o0 && %t/o0 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 %s -o %t/o2 && %t/o2 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 -march=native %s -o %t/native && %t/native | FileCheck %s --check-prefix=OUT
// ON-LABEL: define {{.*}} @tangent(double noundef %0, double noundef %1, double noundef %2, double noundef %3, double noundef %4, double noundef %5)
// ON-NEXT: [[T:%[0-9]+]] = fmul {{.*}}double %0, %2
// ON-NEXT: [[XDY:%[0-9]+]] = fmul {{.*}}double %0, %3
// ON-NEXT: [[DT:%[0-9]+]] = tail call {{.*}}double @llvm.fmuladd.f64(double %1, double %2, double [[XDY]])
// ON-NEXT: fadd {{.*}}double [[T]], %4
// ON-NEXT: fadd {{.*}}double [[DT]], %5
// OFF-LABEL: define {{.*}} @tangent(
// OFF-NOT: fmuladd
// OFF: ret
// OUT: f 0 df 2.25
#include <stdio.h>
typedef struct {
  double primal, tangent;
} dual;
extern int enzyme_primal_return;
dual __enzyme_fwddiff(void *, ...);
static double f(double x, double y, double z) {
  double t = x * y;
  return t + z;
}
dual tangent(double x, double dx, double y, double dy, double z, double dz) {
  return __enzyme_fwddiff((void *)f, enzyme_primal_return, x, dx, y, dy, z,
                          dz);
}
int main(void) {
  // d(x y + z) = dx y + x dy + dz = 0.25 (-2) + 1.5 (0.5) + 2, exact.
  dual d = tangent(1.5, 0.25, -2.0, 0.5, 3.0, 2.0);
  printf("f %g df %g\n", d.primal, d.tangent);
  return 0;
}
