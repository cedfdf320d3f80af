/* A pointer into constant memory returned by a function that also takes an
 * active argument, then passed to a differentiated callee: it is constant.
 * (It was taken as active because an argument was, and got a null shadow
 * that the callee's derivative dereferenced: a crash at -O0, and at -O2 a
 * program the optimizer reduced to `unreachable`.) Both modes, every level,
 * against analytic values and central differences. */
#include "check.h"

typedef struct {
  const double *p;
  int n;
} params;

/* touches an active value and returns a pointer from the constant
 * parameters */
__attribute__((noinline)) static const double *coefficients(const params *c,
                                                            double *x) {
  *x *= 1.0;
  return c->p;
}
/* the same through two calls */
__attribute__((noinline)) static const double *
coefficients2(const params *c, double *x) {
  return coefficients(c, x);
}

static double poly(double x, const double *a, int n) {
  double s = 0, xi = 1;
  for (int i = 0; i < n; ++i, xi *= x)
    s += a[i] * xi;
  return s;
}

static double model(const params *c, double x) {
  double y = x;
  const double *a = coefficients(c, &y);
  const double *b = coefficients2(c, &y);
  return poly(y, a, c->n) + poly(y, b, c->n) * y;
}

extern int enzyme_const;
double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

int main(void) {
  double a[3] = {1, 2, 3};
  params c = {a, 3};
  const double x = 0.7, h = 1e-6;
  /* poly = 1 + 2x + 3x^2; model = poly + poly * x */
  double p = 1 + 2 * x + 3 * x * x, dp = 2 + 6 * x;
  double want = dp + dp * x + p;
  double fwd = __enzyme_fwddiff((void *)model, enzyme_const, &c, x, 1.0);
  double rev = __enzyme_autodiff((void *)model, enzyme_const, &c, x);
  CHECK_CLOSE(fwd, want, 1e-12);
  CHECK_CLOSE(rev, want, 1e-12);
  CHECK_CLOSE(fwd, (model(&c, x + h) - model(&c, x - h)) / (2 * h), 1e-7);
  return check_finish();
}
