// At -O0, std::sort's helpers return pointers from calls to functions that
// return pointers. The reverse sweep once kept facts about calls it had
// replaced and erased; an instruction created later at the same address
// inherited them, so that some runs gave the return-value packing of
// std::move_backward an adjoint (an `alloca { ptr, ptr }` in its reverse
// sweep) and others did not. Four compilations give the same IR.
// RUN: %adcc++ -O0 -S -emit-llvm %s -o %t.1
// RUN: %adcc++ -O0 -S -emit-llvm %s -o %t.2
// RUN: %adcc++ -O0 -S -emit-llvm %s -o %t.3
// RUN: %adcc++ -O0 -S -emit-llvm %s -o %t.4
// RUN: cmp %t.1 %t.2
// RUN: cmp %t.1 %t.3
// RUN: cmp %t.1 %t.4
// RUN: FileCheck %s < %t.1
#include <algorithm>
extern "C" void __enzyme_autodiff(void *, ...);

static double sorted(const double *x) {
  double a[5];
  std::copy(x, x + 5, a);
  std::sort(a, a + 5, [](double p, double q) { return p > q; });
  return a[0] * a[1] + a[4];
}

void gradient(const double *x, double *dx) {
  __enzyme_autodiff((void *)sorted, x, dx);
}
// CHECK-LABEL: define internal void @diffe__ZSt13move_backwardIPdS0_ET0_T_S2_S1_(
// CHECK-NOT: alloca
// CHECK: ret void
