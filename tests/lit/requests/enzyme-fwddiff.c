// An Enzyme-style forward-mode request reaches adcore at every optimization
// level and is replaced by a call to the generated derivative.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O0 %s -fadcc-print-requests -o %t/p0 -lm 2>&1 | FileCheck %s --check-prefix=REQ
// RUN: %t/p0 | FileCheck %s
// RUN: %adcc -O0 -g %s -o %t/pg -lm && %t/pg | FileCheck %s
// RUN: %adcc -O2 %s -fadcc-print-requests -o %t/p2 -lm 2>&1 | FileCheck %s --check-prefix=REQ
// RUN: %t/p2 | FileCheck %s
// RUN: %adcc -O3 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %adcc -O2 -c %s -fno-adcc-pass -o %t/n.o -fadcc-print-requests 2>&1 | count 0
// REQ: adcc: request: forward mode of 'square' (width 1) requested in 'tangent' at {{.*}}enzyme-fwddiff.c:[[@LINE+10]]:10
// CHECK: tangent 6
// IR-NOT: __enzyme_fwddiff
// IR: define {{.*}}double @tangent(double
// IR-NEXT: fmul double %{{.*}}, 2.000000e+00
// IR-NEXT: ret double
#include <stdio.h>
double square(double x) { return x * x; }
double __enzyme_fwddiff(void *, ...);
double tangent(double x) {
  return __enzyme_fwddiff((void *)square, x, 1.0);
}
int main(void) {
  printf("tangent %g\n", tangent(3.0));
  return 0;
}
