// An array of doubles reached through an integer field (`uintptr_t r`,
// read as `(double *)c->r`): reverse mode follows the derivative through
// the integer since 2026-12-06 (the field's shadow holds the shadow
// array's address; values checked in e2e rev_address_fields.c). Until
// then a located error at every level (below), and at -O0 before that an
// internal error ("the active value ... has no shadow").
// RUN: %expect-exit 0 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NONE %s
// RUN: %expect-exit 0 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck --allow-empty --check-prefix=NONE %s
// NONE-NOT: error
#include <stdint.h>
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

struct cells {
  uintptr_t r;
  int n;
};

static double f(struct cells *c, const double *x) {
  // (Was, at -O0: "the address of memory with derivatives is kept in an
  // integer variable"; from -O1: "a value with a derivative is stored into
  // memory that has no shadow".)
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
