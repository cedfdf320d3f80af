/* Reverse mode, in-out semantics of duplicated memory: a constant written
 * over an input (its adjoint stops there), and in-place functions whose
 * shadow holds the output adjoint w on entry and J^T w on exit, with and
 * without a returned value, checked against forward mode:
 * <J^T w, v> == <w, J v> (+ the returned tangent). */
#include "rev_check.h"
void __enzyme_fwddiff_void(void *, ...);
#define N 6
static double constwrite(double *x) {
  double r = x[0] * x[0];
  x[0] = 1;
  return r + x[0] * x[1];
}
static void recur(double *x) {
  for (int i = 1; i < N; ++i)
    x[i] = sin(x[i - 1]) + x[i] * x[i - 1];
  x[0] = x[N - 1] * x[0];
}
static double recur_ret(double *x) {
  recur(x);
  return x[0] + x[1] * x[2];
}
int main(void) {
  {
    double x[2] = {3, 4}, dx[2] = {0};
    __enzyme_autodiff((void *)constwrite, x, dx);
    CHECK_CLOSE(dx[0], 6, 0);
    CHECK_CLOSE(dx[1], 1, 0);
    CHECK_CLOSE(x[0], 1, 0);
  }
  for (int t = 0; t < 3; ++t) {
    double x[N], v[N], w[N], xbar[N], y[N], ydot[N];
    for (int i = 0; i < N; ++i) {
      x[i] = rev_rand();
      v[i] = rev_rand();
      w[i] = rev_rand();
    }
    /* in-out: shadow holds ybar on entry, J^T ybar on exit */
    memcpy(y, x, sizeof y);
    memcpy(ydot, v, sizeof v);
    __enzyme_fwddiff_void((void *)recur, y, ydot);
    memcpy(y, x, sizeof y);
    memcpy(xbar, w, sizeof w);
    __enzyme_autodiff_void((void *)recur, y, xbar);
    double l = 0, r = 0;
    for (int i = 0; i < N; ++i) {
      l += w[i] * ydot[i];
      r += xbar[i] * v[i];
    }
    CHECK_CLOSE(r, l, 1e-12);
    /* with a returned value too: seed 1 on the return plus w in memory */
    memcpy(y, x, sizeof y);
    memcpy(ydot, v, sizeof v);
    double rt = __enzyme_fwddiff((void *)recur_ret, y, ydot);
    memcpy(y, x, sizeof y);
    memcpy(xbar, w, sizeof w);
    __enzyme_autodiff((void *)recur_ret, y, xbar);
    l = rt;
    r = 0;
    for (int i = 0; i < N; ++i) {
      l += w[i] * ydot[i];
      r += xbar[i] * v[i];
    }
    CHECK_CLOSE(r, l, 1e-12);
  }
  return check_finish();
}
