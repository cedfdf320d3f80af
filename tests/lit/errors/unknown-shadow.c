// A derivative read through a pointer that the reverse sweep has no
// shadow for (here one rebuilt from an integer multiplied by one: an
// address offset or aligned as an integer has a shadow, e2e rev_vla.c) is
// an error at the load, not a gradient that silently misses its
// contribution (the adjoint was dropped as if the memory were constant).
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>
double __enzyme_autodiff(void *, ...);
extern uintptr_t one;

static double second_squared(double *x) {
  uintptr_t a = (uintptr_t)x * one;
  double *p = (double *)(a + 8);
  return *p * *p;
}
// CHECK: unknown-shadow.c:[[#@LINE-2]]:10: error: cannot differentiate 'second_squared' in reverse mode: a floating-point value with a derivative is read through a pointer whose shadow is not known here

void gradient(double *x, double *dx) {
  __enzyme_autodiff((void *)second_squared, x, dx);
}
