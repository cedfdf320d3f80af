/* A shadow struct zeroed by the caller of the function that makes the
 * request (`grad(&s, &ds, x)` with `struct S ds = {0}` in main): its null
 * shadow pointer reached the derivative unguarded, and reading a value
 * through it crashed (as in Enzyme); a value written through it and read
 * back must keep its derivative. Reverse and forward mode, forward over
 * reverse with the gradient's shadow given by the outer request; analytic
 * values and central differences. */
#include "check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct S {
  double *p;
  double k;
};

/* r = p[0] x^2 + (p[1] = x k)^2: d/dx = 2 p0 x + 2 x k^2, d/dk = 2 x^2 k,
 * d2/dx2 = 2 p0 + 2 k^2. */
static double f(struct S *s, double x) {
  double a = s->p[0] * x * x;
  s->p[1] = x * s->k;
  return a + s->p[1] * s->p[1];
}

static double value(double p0, double k, double x) {
  double buf[2] = {p0, 0};
  struct S s = {buf, k};
  return f(&s, x);
}

static double __attribute__((noinline))
grad(struct S *s, struct S *ds, double x) {
  return __enzyme_autodiff((void *)f, enzyme_dup, s, ds, enzyme_out, x);
}

static double __attribute__((noinline))
tangent(struct S *s, struct S *ts, double x) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, s, ts, enzyme_dup, x, 1.0);
}

int main(void) {
  const double p0 = 0.5, k = 1.5, x = 0.7, h = 1e-6;
  double buf[2] = {p0, 0};
  struct S s = {buf, k};
  for (int rep = 0; rep < 2; ++rep) {
    struct S ds = {0};
    double g = grad(&s, &ds, x);
    CHECK_CLOSE(g, 2 * p0 * x + 2 * x * k * k, 1e-12);
    CHECK_CLOSE(g, (value(p0, k, x + h) - value(p0, k, x - h)) / (2 * h),
                1e-6);
    CHECK_CLOSE(ds.k, 2 * x * x * k, 1e-12);
    CHECK_TRUE(ds.p == NULL);
    struct S ts = {0};
    CHECK_CLOSE(tangent(&s, &ts, x), g, 1e-12);
    CHECK_TRUE(ts.p == NULL);
  }
  struct S ds = {0}, ts = {0}, tds = {0};
  double d2 = __enzyme_fwddiff((void *)grad, enzyme_dup, &s, &ts, enzyme_dup,
                               &ds, &tds, enzyme_dup, x, 1.0);
  CHECK_CLOSE(d2, 2 * p0 + 2 * k * k, 1e-12);
  return check_finish();
}
