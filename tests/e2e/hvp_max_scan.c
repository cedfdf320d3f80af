/* Regression (derivative fuzzer, generator version 6, seed 35): forward
 * mode over the gradient of a function that scans for a maximum
 * (`if (t > m) m = t;` over x[k] * x[k], n not known, the result through
 * tanh) was refused at -O1 only: the reverse sweep reads each iteration's
 * branch from an array of records {double, flag}, and the flag, which the
 * type analysis took for part of a double, for "an integer that holds the
 * bits of a floating-point value". The Hessian-vector products are checked
 * against the closed form and against central differences of the
 * gradient, for maxima at each position. */
#include "check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

enum { N = 4 };

static void f(const double *x, int n, double *out) {
  double m = x[0] * x[0];
  for (int k = 0; k < n; ++k) {
    double t = x[k] * x[k];
    if (t > m)
      m = t;
  }
  out[0] = tanh(m) + sin(x[1]);
}

static void grad(const double *x, double *g, int n) {
  double out[1], dout[1] = {1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n, enzyme_dup,
                    out, dout);
}

int main(void) {
  const double points[3][N] = {{0.3, -0.8, 0.5, 0.1},
                               {1.1, -0.4, 0.5, 0.2},
                               {0.2, 0.3, -0.6, 0.9}};
  const double v[N] = {1, 0.5, -0.25, 0.75};
  for (int p = 0; p < 3; ++p) {
    const double *x = points[p];
    double g[N] = {0}, hv[N] = {0};
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv,
                     enzyme_const, N);
    /* closed form: m = x[j]^2 at the largest |x[j]| */
    int j = 0;
    for (int k = 1; k < N; ++k)
      if (x[k] * x[k] > x[j] * x[j])
        j = k;
    double u = x[j] * x[j], th = tanh(u), s2 = 1 - th * th;
    for (int i = 0; i < N; ++i) {
      double want = 0;
      if (i == j)
        want += (2 * s2 - 8 * u * s2 * th) * v[j];
      if (i == 1)
        want += -sin(x[1]) * v[1];
      CHECK_CLOSE(hv[i], want, 1e-12);
    }
    /* central differences of the gradient along v */
    double h = 1e-6, xp[N], xm[N], gp[N] = {0}, gm[N] = {0};
    for (int i = 0; i < N; ++i) {
      xp[i] = x[i] + h * v[i];
      xm[i] = x[i] - h * v[i];
    }
    grad(xp, gp, N);
    grad(xm, gm, N);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(hv[i], (gp[i] - gm[i]) / (2 * h), 1e-6);
  }
  return check_finish();
}
