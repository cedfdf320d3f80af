// A noinline helper given a `void *` field's pointer itself copies doubles
// by bytes (`memcpy((char *)r + 8 * to, (char *)r + 8 * from, 8)`); the
// caller writes and reads the doubles through the same field,
// `((double *)c->r)[i]`, which types the helper's pointer (FieldPointees.cpp).
// Until 2026-12-06 the copy lost its adjoint at -O1..-O3 (gradient 2 8 18 32
// instead of 0 0 30 40); written through another field it is the located
// error of lit errors/untyped-bits-bytes-arg.c. From -O1 (at -O0 the same
// error: the helper's memcpy is not typed by its callers there). Registered
// with and without -fno-strict-aliasing.
#include "rev_check.h"
#include <string.h>

struct cells {
  int n;
  void *r;
};

__attribute__((noinline)) void move(void *r, int to, int from) {
  memcpy((char *)r + 8 * to, (char *)r + 8 * from, 8);
}

static double f(struct cells *c, const double *x) {
  for (int i = 0; i < 4; ++i)
    ((double *)c->r)[i] = x[i] * x[i];
  move(c->r, 0, 3);
  move(c->r, 1, 2);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += (i + 1) * ((double *)c->r)[i];
  return s;
}

static double f_of_x(const double *x) {
  double a[4];
  struct cells c = {4, a};
  return f(&c, x);
}

int main(void) {
  double a[4], da[4] = {0}, x[4] = {1, 2, 3, 4}, g[4] = {0};
  struct cells c = {4, a}, dc = {4, da};
  __enzyme_autodiff((void *)f, enzyme_dup, &c, &dc, enzyme_dup, x, g);
  // s = x3^2 + 2 x2^2 + 3 x2^2 + 4 x3^2: d/dx = 0, 0, 10 x2, 10 x3
  const double want[4] = {0, 0, 30, 40};
  for (int i = 0; i < 4; ++i) {
    CHECK_CLOSE(g[i], want[i], REV_TOL_EXACT);
    CHECK_CLOSE(g[i], fd_partial(f_of_x, x, i), REV_TOL_FD);
  }
  double t[4] = {0.5, -1, 2, 0.25}, da2[4] = {0};
  struct cells dc2 = {4, da2};
  double tan =
      __enzyme_fwddiff((void *)f, enzyme_dup, &c, &dc2, enzyme_dup, x, t);
  CHECK_CLOSE(tan, 30 * t[2] + 40 * t[3], REV_TOL_EXACT);
  return check_finish();
}
