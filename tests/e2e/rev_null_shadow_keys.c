/* One function differentiated for two callers, one passing a shadow struct
 * it zeroes (null shadow pointers: guarded accesses, scratch shadows) and
 * one passing a real shadow (plain accesses, adjoints into the caller's
 * buffer), in both orders, directly and through a differentiated caller:
 * the requests differ only in the key's null-shadow bits
 * (DerivativeKey::NullReaching, NullableShadows) and each must get its own
 * derivative. Analytic values and central differences. */
#include "check.h"

#include <math.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct S {
  double *p;
  double k;
};

/* p[0] = x^2; r = p[0] k + p[1] x (p[1] as given) */
static double f(struct S *s, double x) {
  s->p[0] = x * x;
  return s->p[0] * s->k + s->p[1] * x;
}

/* the same, one call deeper */
__attribute__((noinline)) static double inner(struct S *s, double x) {
  s->p[0] = sin(x);
  return s->p[0] * s->k + s->p[1] * x;
}
static double outer(struct S *s, double x) { return 2 * inner(s, x); }

static double f_value(double x, double k, double p1) {
  double buf[2] = {0, p1};
  struct S s = {buf, k};
  return f(&s, x);
}

static const double X = 0.6, K = -1.5, P1 = 0.25, H = 1e-6;

/* (Each caller is its own function: each request is lowered on its own.) */
static void f_zeroed(void) {
  double buf[2] = {0, P1};
  struct S s = {buf, K}, ds = {0};
  double dx =
      __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_out, X);
  CHECK_CLOSE(dx, 2 * X * K + P1, 1e-12);
  CHECK_CLOSE(dx, (f_value(X + H, K, P1) - f_value(X - H, K, P1)) / (2 * H),
              1e-6);
  CHECK_CLOSE(ds.k, X * X, 1e-12);
  CHECK_TRUE(ds.p == NULL);
  struct S ts = {0};
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, &s, &ts, enzyme_dup, X,
                               1.0),
              dx, 1e-12);
}

static void f_real(void) {
  double buf[2] = {0, P1}, dbuf[2] = {0, 0};
  struct S s = {buf, K}, ds = {dbuf, 0};
  double dx =
      __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_out, X);
  CHECK_CLOSE(dx, 2 * X * K + P1, 1e-12);
  CHECK_CLOSE(ds.k, X * X, 1e-12);
  CHECK_CLOSE(dbuf[1], X, 1e-12); /* d r / d p[1] */
  CHECK_CLOSE(dbuf[0], 0, 1e-12); /* p[0] is overwritten */
  double tbuf[2] = {0, 1};
  struct S ts = {tbuf, 0};
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, &s, &ts, enzyme_dup, X,
                               0.0),
              X, 1e-12);
}

static void outer_real(void) {
  double buf[2] = {0, P1}, dbuf[2] = {0, 0};
  struct S s = {buf, K}, ds = {dbuf, 0};
  double dx =
      __enzyme_autodiff((void *)outer, enzyme_dup, &s, &ds, enzyme_out, X);
  CHECK_CLOSE(dx, 2 * (cos(X) * K + P1), 1e-12);
  CHECK_CLOSE(dbuf[1], 2 * X, 1e-12);
  CHECK_CLOSE(ds.k, 2 * sin(X), 1e-12);
}

static void outer_zeroed(void) {
  double buf[2] = {0, P1};
  struct S s = {buf, K}, ds = {0};
  double dx =
      __enzyme_autodiff((void *)outer, enzyme_dup, &s, &ds, enzyme_out, X);
  CHECK_CLOSE(dx, 2 * (cos(X) * K + P1), 1e-12);
  CHECK_CLOSE(ds.k, 2 * sin(X), 1e-12);
  CHECK_TRUE(ds.p == NULL);
  struct S ts = {0};
  CHECK_CLOSE(__enzyme_fwddiff((void *)outer, enzyme_dup, &s, &ts, enzyme_dup,
                               X, 1.0),
              dx, 1e-12);
}

int main(void) {
  f_zeroed();
  f_real();
  outer_real();
  outer_zeroed();
  /* and again, in the other order at run time */
  outer_real();
  f_real();
  f_zeroed();
  return check_finish();
}
