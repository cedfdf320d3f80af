// A variadic function given variable arguments with derivatives is called
// through a specialization for its argument list where its va_list stays
// in the function (e2e compat_variadic_active.c). Where it does not (the
// va_list handed to another function, or copied with va_copy), or an extra
// argument is a long double, the call is refused in both modes; one called
// with only its fixed arguments is differentiated (e2e
// compat_variadic_fixed.cpp).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdarg.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static double vsum(int n, va_list ap) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, double);
  return s;
}
__attribute__((noinline)) static double sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = vsum(n, ap);
  va_end(ap);
  return s;
}
__attribute__((noinline)) static double twice(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  double s = va_arg(ap, double) + va_arg(again, double);
  va_end(again);
  va_end(ap);
  return s;
}
__attribute__((noinline)) static long double wide(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long double s = va_arg(ap, long double);
  va_end(ap);
  return s * n;
}

__attribute__((noinline)) static double square(double v, ...) { return v * v; }

static double f(const double *x) {
  // CHECK-DAG: variadic-active.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'f' in reverse mode: calls to the variadic function 'sum'
  // CHECK-DAG: variadic-active.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f' in forward mode: calls to the variadic function 'sum'
  return sum(2, x[0], 2.0) * x[1] + square(x[1]);
}
static double g(const double *x) {
  // CHECK-DAG: variadic-active.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'g' in reverse mode: calls to the variadic function 'twice'
  // CHECK-DAG: variadic-active.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'g' in forward mode: calls to the variadic function 'twice'
  return twice(1, x[0]);
}
static double h(const double *x) {
  // CHECK-DAG: variadic-active.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'h' in reverse mode: calls to the variadic function 'wide'
  // CHECK-DAG: variadic-active.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'h' in forward mode: calls to the variadic function 'wide'
  return (double)wide(1, (long double)x[0]);
}

// CHECK-NOT: square
void grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx);
  __enzyme_autodiff((void *)h, enzyme_dup, x, dx);
}
double tangent(const double *x, const double *t) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, t) +
         __enzyme_fwddiff((void *)g, enzyme_dup, x, t) +
         __enzyme_fwddiff((void *)h, enzyme_dup, x, t);
}
