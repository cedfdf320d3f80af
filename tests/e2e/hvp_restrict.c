/* Hessian-vector products by forward over reverse of an objective whose
 * pointer parameters are __restrict__ (issue 33, item 5b). With restrict,
 * the reverse sweep reads the constant parameters again through their
 * pointer, which the augmented sweep recorded; forward mode over it gave
 * that record the outer tangent of the pointer, null for a parameter
 * passed enzyme_const, and read the parameters' tangents at address 0 (a
 * crash from -O1). Checked against closed forms and central differences
 * of the gradient; also with the parameters duplicated in the outer
 * request (the mixed second derivative d/dp of the gradient). */
#include "rev_check.h"

void __enzyme_fwddiff_void(void *, ...);

enum { N = 5 };

static double f(const double *__restrict__ x, const double *__restrict__ p,
                int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * x[i] * x[i] * x[i] + sin(x[i]) * x[(i + 1) % n];
  return s;
}

static void grad(const double *x, double *dx, const double *p, int n) {
  for (int i = 0; i < n; ++i)
    dx[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, p,
                    enzyme_const, n);
}

/* H v in closed form */
static void hess_vec(const double *x, const double *p, const double *v,
                     double *hv) {
  for (int i = 0; i < N; ++i)
    hv[i] = 0;
  for (int i = 0; i < N; ++i) {
    int j = (i + 1) % N;
    hv[i] += (6 * p[i] * x[i] - sin(x[i]) * x[j]) * v[i] + cos(x[i]) * v[j];
    hv[j] += cos(x[i]) * v[i];
  }
}

int main(void) {
  double x[N], p[N], v[N], dp[N];
  for (int i = 0; i < N; ++i) {
    x[i] = rev_rand();
    p[i] = 1 + rev_rand();
    v[i] = rev_rand();
    dp[i] = rev_rand();
  }
  double g[N], hv[N], want[N];
  __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv,
                        enzyme_const, p, enzyme_const, N);
  hess_vec(x, p, v, want);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(hv[i], want[i], REV_TOL_EXACT);
  /* central differences of the gradient along v */
  double xp[N], xm[N], gp[N], gm[N], h = 1e-6;
  for (int i = 0; i < N; ++i)
    xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  grad(xp, gp, p, N);
  grad(xm, gm, p, N);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(hv[i], (gp[i] - gm[i]) / (2 * h), REV_TOL_FD);

  /* p duplicated in the outer request: d/dp of the gradient along dp,
   * whose i-th entry is 3 x_i^2 dp_i */
  double g2[N], dg[N], zero[N] = {0};
  __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, zero, enzyme_dup, g2, dg,
                        enzyme_dup, p, dp, enzyme_const, N);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dg[i], 3 * x[i] * x[i] * dp[i], REV_TOL_EXACT);
  return check_finish();
}
