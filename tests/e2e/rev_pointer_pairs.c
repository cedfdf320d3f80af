/* Reverse mode through functions that return structs of pointers by value
 * (a pair of pointers, a pointer with a count): the augmented sweep
 * returns their shadows too, as for a single pointer. Before, the
 * gradient came out zero at -O0 and -O1 (the pointers read out of the
 * returned struct had no shadows, so the adjoints went nowhere). Also a
 * struct whose pointer field is written as an integer (what the optimizer
 * makes of a copied reference, as in Eigen's expression objects): the
 * shadow struct gets the shadow's bits (before, its field stayed null and
 * the gradient crashed at -O1 and up). */
#include "rev_check.h"

#include <stdint.h>

extern int enzyme_dup, enzyme_const;

typedef struct {
  double *a, *b;
} two;
typedef struct {
  const double *p;
  int n;
} span;

__attribute__((noinline)) static two pick(double *x, double *y, int k) {
  two t = {k ? x : y, k ? y : x};
  return t;
}
__attribute__((noinline)) static span tail(const double *v, int n, int from) {
  span s = {v + from, n - from};
  return s;
}

static double f(double *x, double *y, int k) {
  two t = pick(x, y, k);
  return *t.a * *t.b * *t.a;
}
static double sumsq_tail(const double *v, int n) {
  span s = tail(v, n, 2);
  double r = 0;
  for (int i = 0; i < s.n; ++i)
    r += s.p[i] * s.p[i];
  return r;
}

static double f_of(const double *z) {
  double x = z[0], y = z[1];
  return f(&x, &y, 1);
}

typedef struct {
  span s;
  long pad;
} holder;
__attribute__((noinline)) static double holder_sumsq(const holder *h) {
  double r = 0;
  for (int i = 0; i < h->s.n; ++i)
    r += h->s.p[i] * h->s.p[i];
  return r;
}
static double through_bits(const double *x) {
  holder h;
  uintptr_t bits = (uintptr_t)x;
  memcpy(&h.s.p, &bits, sizeof bits); /* a store of the address as i64 */
  h.s.n = 3;
  h.pad = 0;
  return holder_sumsq(&h);
}

int main() {
  double x = 1.5, y = 2.0, dx = 0, dy = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy,
                    enzyme_const, 1);
  double z[2] = {x, y}, g[2] = {dx, dy}, exact[2] = {2 * x * y, x * x};
  CHECK_GRAD(f_of, z, 2, g, exact);
  dx = dy = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx, enzyme_dup, &y, &dy,
                    enzyme_const, 0); /* the other way round: y y x */
  CHECK_CLOSE(dx, y * y, REV_TOL_EXACT);
  CHECK_CLOSE(dy, 2 * x * y, REV_TOL_EXACT);

  double v[6] = {0.5, -1, 2, 0.25, -3, 1.5}, dv[6] = {0};
  __enzyme_autodiff((void *)sumsq_tail, enzyme_dup, v, dv, enzyme_const, 6);
  for (int i = 0; i < 6; ++i)
    CHECK_CLOSE(dv[i], i < 2 ? 0.0 : 2 * v[i], REV_TOL_EXACT);
  double w[6], dir = rev_dir(dv, w, 6);
  CHECK_CLOSE(
      dir,
      __enzyme_fwddiff((void *)sumsq_tail, enzyme_dup, v, w, enzyme_const, 6),
      REV_TOL_DOT);
  double xs[3] = {1, -2, 0.5}, dxs[3] = {0};
  __enzyme_autodiff((void *)through_bits, xs, dxs);
  for (int i = 0; i < 3; ++i)
    CHECK_CLOSE(dxs[i], 2 * xs[i], REV_TOL_EXACT);
  printf("pick: d/dx = %.12f, d/dy = %.12f\n", g[0], g[1]);
  return check_finish();
}
