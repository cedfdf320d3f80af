// A double copied as 8 bytes by a helper that is not inlined, through a
// `void *` field, where the callers disagree on what the field points to
// (doubles in the differentiated function, longs in another): at -O2 the
// copy is an i64 load and store that nothing types. Reverse mode reports
// it at the copy, never a gradient that silently lost the copied adjoint
// (until 2026-12-06 it was 0 there). Where every caller stores doubles
// through the field, the copy is typed (e2e rev_untyped_field_copies.c).
// Forward mode moves the tangents with the bytes.
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O2 -c -DFORWARD %s -o /dev/null
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct cells {
  void *r;
  int n;
};

// CHECK: untyped-bits-copy.c:[[@LINE+2]]:3: error: cannot differentiate 'moved' in reverse mode: a memory copy whose contents cannot be typed (8 or 4 bytes moved as an integer through a pointer that says nothing of them
__attribute__((noinline)) void moved(struct cells *c, int to, int from) {
  memcpy((double *)c->r + to, (double *)c->r + from, 8);
}

__attribute__((noinline)) long counts(struct cells *c) {
  long *k = (long *)c->r;
  k[0] = 5;
  k[1] = 7;
  moved(c, 0, 1);
  return k[0];
}

static double f(struct cells *c, const double *x) {
  double *r = (double *)c->r;
  for (int i = 0; i < 4; ++i)
    r[i] = x[i] * x[i];
  moved(c, 0, 3);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += (i + 1) * r[i];
  return s;
}

#ifdef FORWARD
double tangent(struct cells *c, struct cells *dc, const double *x,
               const double *t) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, c, dc, enzyme_dup, x, t);
}
#else
void gradient(struct cells *c, struct cells *dc, const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, c, dc, enzyme_dup, x, g);
}
#endif
