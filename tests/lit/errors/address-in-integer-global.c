// An address of memory with derivatives kept in a global integer and made
// a pointer again in a function that reads it (and is called with no
// argument with a derivative) is an error where it is stored, in both
// modes: until 2026-12-07, from -O1, the global was taken for memory that
// no differentiated code reads back, and the values read through it got
// no derivative, without a word.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

uintptr_t stash;
__attribute__((noinline)) static double read_stash(void) {
  const double *p = (const double *)stash;
  return p[0] * p[1];
}
static double f(double *x) {
  stash = (uintptr_t)x;
  return read_stash() * x[0];
}
// CHECK-DAG: address-in-integer-global.c:[[#@LINE-3]]:9: error: cannot differentiate 'f' in reverse mode: the address of memory with derivatives is kept in an integer variable
// CHECK-DAG: address-in-integer-global.c:[[#@LINE-4]]:9: error: cannot differentiate 'f' in forward mode: the address of memory with derivatives is kept in an integer variable

void gradient(double *x, double *dx) {
  __enzyme_autodiff((void *)f, x, dx);
}
double tangent(double *x, double *dx) {
  return __enzyme_fwddiff((void *)f, x, dx);
}
