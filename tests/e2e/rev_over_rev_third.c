/* Third derivatives over an array (issue 33, item 9): the directional
 * derivative of <grad |grad f|^2, v> along w, by forward mode over reverse
 * over reverse and by reverse over reverse over reverse (the outermost
 * gradient recording on the tape of level 2), against each other and
 * against central differences. */
#include "rev_check.h"

enum { N = 6 };

static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double d = x[i] - (i ? x[i - 1] : 0.5);
    s += d * d * d + x[i] * x[i] * x[(i + 2) % n];
  }
  return s;
}

static double norm2_grad(const double *x, int n) {
  double g[N] = {0};
  __enzyme_autodiff_void((void *)f, enzyme_dup, x, g, enzyme_const, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += g[i] * g[i];
  return s;
}

static double grad_dot(const double *x, const double *v) {
  double dx[N] = {0};
  __enzyme_autodiff_void((void *)norm2_grad, enzyme_dup, x, dx, enzyme_const,
                         (int)N);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += dx[i] * v[i];
  return s;
}

int main(void) {
  double x[N], v[N], w[N], d3[N] = {0}, xp[N], xm[N], h = 1e-5;
  for (int i = 0; i < N; ++i) {
    x[i] = rev_rand();
    v[i] = rev_rand();
    w[i] = rev_rand();
  }
  double t = __enzyme_fwddiff((void *)grad_dot, enzyme_dup, x, w, enzyme_const,
                              v);
  for (int i = 0; i < N; ++i) {
    xp[i] = x[i] + h * w[i];
    xm[i] = x[i] - h * w[i];
  }
  CHECK_CLOSE(t, (grad_dot(xp, v) - grad_dot(xm, v)) / (2 * h), 1e-5);
  __enzyme_autodiff_void((void *)grad_dot, enzyme_dup, x, d3, enzyme_const,
                         v);
  double dot = 0;
  for (int i = 0; i < N; ++i)
    dot += d3[i] * w[i];
  CHECK_CLOSE(dot, t, 1e-9);
  printf("third order over an array: %.12f\n", t);
  return check_finish();
}
