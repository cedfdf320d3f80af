// The function to differentiate must be known at compile time.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: not-a-function.c:[[@LINE+4]]:10: error: the first argument of __enzyme_autodiff must name a function known at compile time
// CHECK-NOT: Stack dump
double __enzyme_autodiff(void *, ...);
double gradient_of(double (*fn)(double), double x) {
  return __enzyme_autodiff((void *)fn, x);
}
