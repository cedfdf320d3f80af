// At -O0 an integer variable that holds an address turned back into a
// pointer has a shadow (since 2026-12-07: `a += 8` and tags masked off
// are followed, e2e int_addresses.c); a value stored into it whose shadow
// is not known (the address multiplied by a number) is an error where it
// is stored, not a gradient that silently misses what is read through the
// rebuilt pointer. An address only inspected as an integer (an alignment
// check) is fine. (Optimized: unknown-shadow.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O0 -c -DALIGNMENT_ONLY %s -o /dev/null
#include <stdint.h>
double __enzyme_autodiff(void *, ...);

#ifndef ALIGNMENT_ONLY
extern uintptr_t one;
static double second_times_first(double *x) {
  uintptr_t a = (uintptr_t)x;
  a = a * one + sizeof(double);
  double *p = (double *)a;
  return p[0] * x[0];
}
// CHECK: address-in-integer.c:[[#@LINE-4]]:5: error: cannot differentiate 'second_times_first' in reverse mode: the address of memory with derivatives is kept in an integer variable

void gradient(double *x, double *dx) {
  __enzyme_autodiff((void *)second_times_first, x, dx);
}
#else
static double aligned_sum(double *x) {
  uintptr_t a = (uintptr_t)x;
  int aligned = (a & 15) == 0;
  return aligned ? x[0] + x[1] : 2 * x[0];
}

void gradient(double *x, double *dx) {
  __enzyme_autodiff((void *)aligned_sum, x, dx);
}
#endif

// Forward mode says the same.
// RUN: %expect-exit 1 %adcc -O0 -c -DFORWARD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
#ifdef FORWARD
double __enzyme_fwddiff(void *, ...);
double tangent(double *x, double *dx) {
  return __enzyme_fwddiff((void *)second_times_first, x, dx);
}
#endif
// FWD: address-in-integer.c:17:5: error: cannot differentiate 'second_times_first' in forward mode: the address of memory with derivatives is kept in an integer variable
