/* enzyme_runtime_activity (Enzyme's run-time activity): a duplicated
 * pointer argument passed with itself as shadow (`enzyme_dup, B, B`) is
 * inactive, decided at run time: the derivative neither reads B's values
 * as derivatives nor adds adjoints into them, and B's values are
 * unchanged. The same call with a separate shadow is active. Reverse and
 * forward mode against analytic values and central differences; a
 * function that writes through the inactive pointer and reads it back
 * (the write's derivative stays within the call). */
#include "check.h"

#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_runtime_activity;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

__attribute__((noinline)) static double dot(int n, const double *x,
                                            const double *y) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i] * y[i];
  return s;
}

/* Writes x-dependent values into w, reads them back. */
static double scratch(int n, const double *x, double *w) {
  for (int i = 0; i < n; ++i)
    w[i] = x[i] * w[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * w[i];
  return s;
}

/* Chooses the shadow at run time, as a caller of a library would. */
__attribute__((noinline)) static void grad(const double *x, double *dx,
                                           const double *y, double *dy) {
  __enzyme_autodiff((void *)dot, enzyme_runtime_activity, enzyme_const, N,
                    enzyme_dup, x, dx, enzyme_dup, y, dy);
}

int main(void) {
  double x[N] = {0.5, -1.25, 2.0, 0.75}, y[N] = {1.5, 0.25, -0.5, 2.0};
  double y0[N];
  memcpy(y0, y, sizeof y);
  /* y inactive: dy is y itself. */
  double dx[N] = {0};
  grad(x, dx, y, y);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(dx[i], y0[i] * y0[i], 1e-14);
    CHECK_TRUE(y[i] == y0[i]);
  }
  /* Both active. */
  double dx2[N] = {0}, dy2[N] = {0};
  grad(x, dx2, y, dy2);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(dx2[i], y[i] * y[i], 1e-14);
    CHECK_CLOSE(dy2[i], 2 * x[i] * y[i], 1e-14);
  }
  /* x inactive instead. */
  double dy3[N] = {0}, xs[N];
  memcpy(xs, x, sizeof x);
  grad(xs, xs, y, dy3);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(dy3[i], 2 * x[i] * y[i], 1e-14);
    CHECK_TRUE(xs[i] == x[i]);
  }

  /* Forward mode: the tangent of an inactive y is zero. */
  double t[N] = {1, 2, 3, 4};
  double fwd = __enzyme_fwddiff((void *)dot, enzyme_runtime_activity,
                                enzyme_const, N, enzyme_dup, x, t,
                                enzyme_dup, y, y);
  double want = 0, h = 1e-6, xp[N], xm[N];
  for (int i = 0; i < N; ++i) {
    want += t[i] * y[i] * y[i];
    xp[i] = x[i] + h * t[i];
    xm[i] = x[i] - h * t[i];
  }
  CHECK_CLOSE(fwd, want, 1e-14);
  CHECK_CLOSE(fwd, (dot(N, xp, y) - dot(N, xm, y)) / (2 * h), 1e-8);
  for (int i = 0; i < N; ++i)
    CHECK_TRUE(y[i] == y0[i]);

  /* Memory passed as its own shadow, overwritten and read back:
   * d/dx_i sum (x_i w_i)^2 = 2 x_i w_i^2 with w's initial values. */
  double w[N] = {1, 2, 3, 4}, dxs[N] = {0};
  __enzyme_autodiff_d((void *)scratch, enzyme_runtime_activity, enzyme_const,
                      N, enzyme_dup, x, dxs, enzyme_dup, w, w);
  for (int i = 0; i < N; ++i) {
    double w0 = i + 1;
    CHECK_CLOSE(dxs[i], 2 * x[i] * w0 * w0, 1e-13);
    CHECK_CLOSE(w[i], x[i] * w0, 1e-15);
  }
  return check_finish();
}
