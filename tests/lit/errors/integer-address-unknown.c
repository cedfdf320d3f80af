// A floating-point value read through a pointer made from an integer that
// has no shadow but may hold the address of memory with derivatives (here
// an integer argument, enzyme_const as every integer, holding x's address)
// is an error at the read, in both modes and at every level: until
// 2026-12-07 it was read as a constant, its derivative 0 without a word.
// An integer that holds only the address of a constant table, or that a
// function given no such address returns, is fine (-DFINE).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O0 -c -DFINE %s -o /dev/null
// RUN: %adcc -O2 -c -DFINE %s -o /dev/null
#include <stdint.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#ifndef FINE
static double second_times_first(double *x, uintptr_t u) {
  const double *p = (const double *)u;
  return p[1] * x[0];
}
// CHECK-DAG: integer-address-unknown.c:[[#@LINE-2]]:10: error: cannot differentiate 'second_times_first' in reverse mode: a floating-point value is read or written through a pointer made from an integer (`(double *)u`) that may hold the address of memory with derivatives
// CHECK-DAG: integer-address-unknown.c:[[#@LINE-3]]:10: error: cannot differentiate 'second_times_first' in forward mode: a floating-point value is read or written through a pointer made from an integer

void gradient(double *x, double *dx) {
  __enzyme_autodiff((void *)second_times_first, enzyme_dup, x, dx,
                    enzyme_const, (uintptr_t)x);
}
double tangent(double *x, double *dx) {
  return __enzyme_fwddiff((void *)second_times_first, enzyme_dup, x, dx,
                          enzyme_const, (uintptr_t)x);
}
#else
static const double K[3] = {0.5, -1.0, 2.0};
uintptr_t table_of(int k);
static double scaled(double *x) {
  const double *c = (const double *)(uintptr_t)K;
  const double *d = (const double *)table_of(1);
  return c[1] * x[0] + d[2] * x[1];
}
void gradient(double *x, double *dx) {
  __enzyme_autodiff((void *)scaled, enzyme_dup, x, dx);
}
double tangent(double *x, double *dx) {
  return __enzyme_fwddiff((void *)scaled, enzyme_dup, x, dx);
}
#endif
