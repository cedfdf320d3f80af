/* Addresses kept as uintptr_t and exchanged by a C function that takes
 * pointers to them and is never inlined (issue 33), in reverse and forward
 * mode: two variables, and two elements of an array. Until 2026-12-07 the
 * function's integer loads and stores (typed `uintptr_t` from -O1 on) moved
 * no shadow, and the derivatives read through the exchanged addresses were
 * wrong without an error at -O1 to -O3. Each gradient against central
 * differences, the analytic values and the tangents, at -O0 to -O3. */
#include "check.h"

#include <math.h>
#include <stdint.h>

extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

enum { N = 3 };

__attribute__((noinline)) static void xchg(uintptr_t *a, uintptr_t *b) {
  uintptr_t t = *a;
  *a = *b;
  *b = t;
}

/* (A macro: an address passed by value is an integer parameter.) */
#define at(a) (*(const double *)(a))

/* x[0] and x[2] exchanged when x[1] > 0: 2 sin(x2) + x0 x1 + x1. */
static double variables(double *x) {
  uintptr_t a = (uintptr_t)x, b = (uintptr_t)(x + 2);
  if (x[1] > 0)
    xchg(&a, &b);
  return 2 * sin(at(a)) + at(b) * x[1] + x[1];
}

static double elements(double *x) {
  uintptr_t a[N] = {(uintptr_t)x, (uintptr_t)(x + 1), (uintptr_t)(x + 2)};
  if (x[1] > 0)
    xchg(&a[0], &a[2]);
  return 2 * sin(at(a[0])) + at(a[2]) * x[1] + at(a[1]);
}

#include "int_addresses_check.h"

int main(void) {
  const double want[N] = {int_addresses_x0[1], int_addresses_x0[0] + 1,
                         2 * cos(int_addresses_x0[2])};
  check_gradient(variables, "xchg of variables", want);
  check_gradient(elements, "xchg of elements", want);
  return check_finish();
}
