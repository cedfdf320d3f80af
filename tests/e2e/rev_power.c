/* Products of powers of one value, whose adjoint adcc sends to the value at
 * once (power rule) and whose factors then need no adjoint of their own:
 * a cubic with a coefficient in place over an array, a factor also used
 * elsewhere (it keeps its adjoint), negations, degree 4 as (x^2)(x^2) (no
 * power rule: neither factor has degree 1) and as ((-x)(2x)x)(-3x), a
 * product of two different values, a factor that is also the addend of
 * the product (a - a a with a = 2 sin x, contracted to fmuladd(-a, a, a):
 * the addend's adjoint must still go through a's own rule), and float.
 * Central differences, forward mode (dot-product test) and closed forms. */
#include "rev_check.h"

#define N 7

static void cubic_step(double *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = x[i] - 0.05 * x[i] * x[i] * x[i];
}
static double cubic_sum(const double *x) {
  double u[N];
  memcpy(u, x, sizeof u);
  cubic_step(u, N);
  cubic_step(u, N);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += u[i] * (i + 1);
  return s;
}

/* t = x0^2 feeds the power product t * x0 and sin(t) */
static double shared(const double *x) {
  double t = x[0] * x[0];
  return t * x[0] + sin(t) + x[1] * x[1] * x[1] * x[1];
}
static void shared_d(const double *x, double *g) {
  double t = x[0] * x[0];
  g[0] = 3 * t + cos(t) * 2 * x[0];
  g[1] = 4 * x[1] * x[1] * x[1];
}

/* ((-x)(2x)x)(-3x) = 6 x^4, and (x^2)(x^2) + (x y)(x y) */
static double quartics(const double *x) {
  double a = -x[0], b = 2 * x[0], c = -3 * x[0];
  double sq = x[1] * x[1], xy = x[0] * x[1];
  return a * b * x[0] * c + sq * sq + xy * xy;
}
static void quartics_d(const double *x, double *g) {
  g[0] = 24 * x[0] * x[0] * x[0] + 2 * x[0] * x[1] * x[1];
  g[1] = 4 * x[1] * x[1] * x[1] + 2 * x[0] * x[0] * x[1];
}

/* a - a^2 with a = 2 sin x: the power rule differentiates a^2 with
 * respect to sin x; the addend a keeps its adjoint */
static double addend(const double *x) {
  double a = 2.0 * sin(x[0]);
  return a - a * a;
}
static void addend_d(const double *x, double *g) {
  g[0] = (1 - 4 * sin(x[0])) * 2 * cos(x[0]);
}

static float cubef(float x) { return 0.25f * x * x * x - x * x; }

int main(void) {
  CHECK_GRAD_AND_DOT(cubic_sum, N, 1.0);
  CHECK_GRAD_AND_DOT(shared, 2, 1.0);
  CHECK_GRAD_AND_DOT(quartics, 2, 1.0);
  CHECK_GRAD_AND_DOT(addend, 1, 1.0);
  {
    double x[2] = {0.7, -1.3}, g[2] = {0}, want[2];
    __enzyme_autodiff((void *)shared, x, g);
    shared_d(x, want);
    CHECK_GRAD(shared, x, 2, g, want);
    double h[2] = {0};
    __enzyme_autodiff((void *)quartics, x, h);
    quartics_d(x, want);
    CHECK_GRAD(quartics, x, 2, h, want);
    double e[1] = {0};
    __enzyme_autodiff((void *)addend, x, e);
    addend_d(x, want);
    CHECK_GRAD(addend, x, 1, e, want);
  }
  {
    float d = __enzyme_autodiff_f((void *)cubef, 1.5f);
    CHECK_CLOSE(d, 0.75 * 1.5 * 1.5 - 3.0, 1e-6); /* 3/4 x^2 - 2x */
  }
  return check_finish();
}
