// A variadic function that reads its variable arguments, given one with a
// derivative, is refused at the call in both modes; one called with only
// its fixed arguments is differentiated (e2e compat_variadic_fixed.cpp).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdarg.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static double sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}

__attribute__((noinline)) static double square(double v, ...) { return v * v; }

static double f(const double *x) {
  // CHECK: variadic-active.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'f' in reverse mode: calls to the variadic function 'sum'
  // CHECK: variadic-active.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f' in forward mode: calls to the variadic function 'sum'
  return sum(2, x[0], 2.0) * x[1] + square(x[1]);
}

// CHECK-NOT: square
void grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}
double tangent(const double *x, const double *t) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, t);
}
