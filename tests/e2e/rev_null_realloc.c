/* realloc of a block reached through a shadow struct the caller zeroes
 * (`struct S ds = {0}`): the shadow of the block is a scratch shadow
 * within the request's session, which no allocator gave. Both modes
 * passed it to realloc (reverse mode also to malloc_usable_size):
 * "realloc(): invalid pointer" at every level before 2026-12-06. The
 * block's tangent is now a fresh zeroed block, its shadow's size 0.
 * Analytic values and central differences. */
#include "check.h"

#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct S {
  double *p;
  double k;
};

/* p grows to 4 elements; p[3] = x k; r = p[3]^2 + p[0] x:
 * d/dx = 2 x k^2 + p[0]. */
static double f(struct S *s, double x) {
  s->p = realloc(s->p, 4 * sizeof(double));
  s->p[3] = x * s->k;
  return s->p[3] * s->p[3] + s->p[0] * x;
}

static double value(double x, double k) {
  double *buf = malloc(2 * sizeof(double));
  buf[0] = 0.25;
  buf[1] = 0;
  struct S s = {buf, k};
  double r = f(&s, x);
  free(s.p);
  return r;
}

int main(void) {
  const double x = 0.7, k = 1.5, h = 1e-6;
  const double want = 2 * x * k * k + 0.25;
  CHECK_CLOSE(want, (value(x + h, k) - value(x - h, k)) / (2 * h), 1e-6);
  for (int mode = 0; mode < 2; ++mode) {
    double *buf = malloc(2 * sizeof(double));
    buf[0] = 0.25;
    buf[1] = 0;
    struct S s = {buf, k}, ds = {0};
    double d =
        mode == 0
            ? __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_out, x)
            : __enzyme_fwddiff((void *)f, enzyme_dup, &s, &ds, enzyme_dup, x,
                               1.0);
    CHECK_CLOSE(d, want, 1e-12);
    free(s.p);
    if (mode == 1)
      free(ds.p); /* (forward mode's tangent block, stored back) */
  }
  return check_finish();
}
