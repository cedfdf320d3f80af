// An address changed by xor and turned back into a pointer is refused in
// forward mode (its shadow cannot be computed the same way); a number
// computed from an address with xor and used only as a count has no
// derivative and is accepted (e2e fwd_address_counts.c).
// RUN: %expect-exit 1 %adcc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>

extern int enzyme_dup;
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static double partner(const double *x) {
  // CHECK: address-xor.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'partner' in forward mode: an address kept in an integer is changed by the integer operation 'xor'
  const double *p = (const double *)((uintptr_t)x ^ sizeof(double));
  return p[0] * x[0];
}

double tangent(const double *x, const double *t) {
  return __enzyme_fwddiff((void *)partner, enzyme_dup, x, t);
}
