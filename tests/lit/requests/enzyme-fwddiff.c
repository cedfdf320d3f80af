// An Enzyme-style request reaches adcore at every optimization level; until
// forward mode lands it is reported at the call, with file:line:column.
// RUN: not %adcc -O0 -c %s -fadcc-print-requests -o /dev/null 2>&1 | FileCheck %s
// RUN: not %adcc -O0 -g -c %s -fadcc-print-requests -o /dev/null 2>&1 | FileCheck %s
// RUN: not %adcc -O2 -c %s -fadcc-print-requests -o /dev/null 2>&1 | FileCheck %s
// RUN: not %adcc -O3 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: %adcc -O2 -c %s -fno-adcc-pass -o /dev/null
// CHECK: adcc: request: forward mode of 'square' (width 1) requested in 'tangent' at {{.*}}enzyme-fwddiff.c:[[@LINE+6]]:10
// CHECK: enzyme-fwddiff.c:[[@LINE+5]]:10: error: forward mode of 'square' is not implemented yet in this version of adcc
// DIAG: enzyme-fwddiff.c:[[@LINE+4]]:10: error: forward mode of 'square'
double square(double x) { return x * x; }
double __enzyme_fwddiff(void *, ...);
double tangent(double x) {
  return __enzyme_fwddiff((void *)square, x, 1.0);
}
