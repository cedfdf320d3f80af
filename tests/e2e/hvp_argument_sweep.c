/* Second derivatives of a function whose callee stores numbers into an
 * array a pointer argument points to at a variable index (`y[i]` in a
 * loop): the reverse sweep's check of those stores for pointers' shadows
 * is placed before the loop once all requests are done
 * (SweepShadowClears.h), so a gradient differentiated again, by forward
 * mode (Hessian-vector product) or by reverse mode, keeps the check as it
 * is. Both against each other and against central differences of the
 * gradient. (adfuzz v21 seed 38 at -O2: "cannot differentiate
 * 'adcc.shadow.clear.sweep'".) */
#include "rev_check.h"

double __enzyme_fwddiff(void *, ...);

enum { N = 7 };
/* (Not a constant to the optimizer: the loop stays a loop.) */
static volatile int count = N;

__attribute__((noinline)) static void fill(const double *x, double *y,
                                           int n) {
  for (int i = 0; i < n; ++i)
    y[i] = sin(x[i]) * x[(i + 1) % n] + 0.5 * x[i] * x[i];
}

static double f(const double *x) {
  int n = count;
  double y[N];
  fill(x, y, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += y[i] * y[i] * (1.0 + 0.1 * i);
  return s;
}

static void grad(const double *x, double *g) {
  for (int i = 0; i < N; ++i)
    g[i] = 0;
  __enzyme_autodiff_void((void *)f, enzyme_dup, x, g);
}

/* <grad f(x), v>: its gradient is H v. */
static double grad_dot(const double *x, const double *v) {
  double g[N];
  grad(x, g);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += g[i] * v[i];
  return s;
}

int main(void) {
  double x[N], v[N], g[N], hv_fwd[N], hv_rev[N] = {0}, xp[N], xm[N];
  double gp[N], gm[N], h = 1e-5;
  for (int i = 0; i < N; ++i) {
    x[i] = rev_rand();
    v[i] = rev_rand();
  }
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv_fwd);
  __enzyme_autodiff_void((void *)grad_dot, enzyme_dup, x, hv_rev,
                         enzyme_const, v);
  for (int i = 0; i < N; ++i) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  grad(xp, gp);
  grad(xm, gm);
  for (int i = 0; i < N; ++i) {
    double fd = (gp[i] - gm[i]) / (2 * h);
    CHECK_CLOSE(hv_fwd[i], fd, 1e-5 * (1 + fabs(fd)));
    CHECK_CLOSE(hv_rev[i], hv_fwd[i], 1e-10 * (1 + fabs(fd)));
  }
  printf("Hessian-vector product over y[i] stores: %.12f\n", hv_fwd[0]);
  return check_finish();
}
