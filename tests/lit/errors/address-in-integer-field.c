// An array of doubles reached through an integer field (`uintptr_t r`,
// read as `(double *)c->r`): reverse mode cannot follow the derivative
// through the integer. A located error at every level; at -O0 it was an
// internal error ("the active value ... has no shadow") until 2026-12-06.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=O0 %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck --check-prefix=O2 %s
#include <stdint.h>
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

struct cells {
  uintptr_t r;
  int n;
};

static double f(struct cells *c, const double *x) {
  // O0: address-in-integer-field.c:[[@LINE+2]]:{{[0-9]+}}: error: cannot differentiate 'f' in reverse mode: the address of memory with derivatives is kept in an integer variable
  // O2: address-in-integer-field.c:[[@LINE+3]]:{{[0-9]+}}: error: cannot differentiate 'f' in reverse mode: a value with a derivative is stored into memory that has no shadow
  double *r = (double *)c->r;
  for (int i = 0; i < 4; ++i)
    r[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += (i + 1) * r[i];
  return s;
}

void gradient(struct cells *c, struct cells *dc, const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, c, dc, enzyme_dup, x, g);
}
