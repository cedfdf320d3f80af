// Divisors that the primal computes so that they are never tiny (1 +
// exp(-v), 2 + a loop's sum of exponentials, an integer converted, a
// square root of 1 + x^2) take reverse mode's plain reciprocal since
// 2026-12-07 (support/DivisorReciprocal.h, neverTinyDivisor); a divisor
// that may be tiny (an argument, 1e-300 + exp(v)) keeps the scaled one.
// The gradient against the analytic one, central differences and forward
// mode, at inputs where the scaled branch would not be taken and at a
// subnormal divisor for the argument, -O0 to -O3.
#include "check.h"

#include <math.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define N 5

static double sigmoid(double v) { return 1 / (1 + exp(-v)); }

__attribute__((noinline)) double f(const double *x, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += exp(x[i]);
  double r = 0;
  for (int i = 0; i < n; i++)
    r += sigmoid(x[i]) + exp(x[i]) / (2 + sum);
  r += x[0] / n + x[1] / sqrt(1 + x[2] * x[2]);
  r += x[3] / (1e-300 + exp(x[4]));
  return r;
}

/* v[0] / v[1] at a tiny v[1]: the scaled reciprocal keeps the adjoints
   finite where the quotient's are. */
__attribute__((noinline)) double ratio(const double *v) { return v[0] / v[1]; }

/* Long double divisors: 2 + x^2 never tiny, 1e-4000 + x^2 maybe (its
   constant's bound is rounded into a double). */
__attribute__((noinline)) void ld(const long double *x, long double *y) {
  *y = x[0] / (2.0L + x[1] * x[1]) + x[0] / (1e-4000L + x[1] * x[1]);
}

static void analytic(const double *x, int n, double *g) {
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += exp(x[i]);
  double s = 2 + sum, w = 0;
  for (int i = 0; i < n; i++)
    w += exp(x[i]);
  for (int i = 0; i < n; i++) {
    double sg = sigmoid(x[i]);
    /* d/dx_i of e_i / s and of the others' e_j / s */
    g[i] = sg * (1 - sg) + exp(x[i]) / s - exp(x[i]) * w / (s * s);
  }
  double q = sqrt(1 + x[2] * x[2]);
  g[0] += 1.0 / n;
  g[1] += 1 / q;
  g[2] += -x[1] * x[2] / (q * q * q);
  double e4 = 1e-300 + exp(x[4]);
  g[3] += 1 / e4;
  g[4] += -x[3] * exp(x[4]) / (e4 * e4);
}

int main(void) {
  double x[N] = {0.3, -1.2, 0.7, 2.5, -0.4}, g[N] = {0}, want[N];
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, N);
  analytic(x, N, want);
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N], h = 1e-6, dx[N] = {0};
    for (int k = 0; k < N; k++)
      xp[k] = xm[k] = x[k];
    xp[i] += h;
    xm[i] -= h;
    dx[i] = 1;
    double fd = (f(xp, N) - f(xm, N)) / (2 * h);
    double fwd = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
    CHECK_CLOSE(g[i], want[i], 1e-12);
    CHECK_CLOSE(g[i], fd, 1e-7);
    CHECK_CLOSE(fwd, g[i], 1e-12);
  }

  /* At v = (0, 1e-310): d/dv1 = -v0 / v1^2 = 0 (not 0 times inf, NaN). */
  double v[2] = {0, 1e-310}, dv[2] = {0, 0};
  __enzyme_autodiff((void *)ratio, enzyme_dup, v, dv);
  CHECK_TRUE(dv[1] == 0);
  /* At v = (1e-300, 3e-300), below 2^-959: 1 / v1 and -v0 / v1^2. */
  double w[2] = {1e-300, 3e-300}, dw[2] = {0, 0};
  __enzyme_autodiff((void *)ratio, enzyme_dup, w, dw);
  CHECK_CLOSE(dw[0] * w[1], 1.0, 1e-14);
  CHECK_CLOSE(dw[1] * w[1] * w[1] / w[0], -1.0, 1e-14);
  long double lx[2] = {1.5L, 0.5L}, ldx[2] = {0, 0}, ly, ldy = 1;
  __enzyme_autodiff((void *)ld, enzyme_dup, lx, ldx, enzyme_dup, &ly, &ldy);
  CHECK_CLOSE((double)ldx[0], (double)(1 / 2.25L + 1 / (1e-4000L + 0.25L)),
              1e-14);
  CHECK_CLOSE((double)ldx[1],
              (double)(-1.5L / (2.25L * 2.25L) - 1.5L / (0.25L * 0.25L)),
              1e-14);
  return check_finish();
}
