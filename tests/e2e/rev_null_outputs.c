/* Optional output pointers passed as NULL, the C API idiom
 * `f(x, NULL)` with `if (aux) *aux = ...` in f: the callee is
 * differentiated with a null shadow for the null pointer (before: "a value
 * with a derivative is stored into memory that has no shadow" at -O0, and
 * at every level where the same function is also called with a real
 * pointer). Gradients against central differences and forward mode (the
 * dot-product test), and the analytic gradient of the NULL-only case. */
#include "rev_check.h"

/* Not inlined: the callee's own derivative sees the pointer as a
 * parameter. */
__attribute__((noinline)) static double model(const double *x, double *aux) {
  double v = sin(x[0]) * x[1];
  if (aux)
    *aux = v * 2;
  return v * x[0];
}

/* Two optional outputs, one array filled in a loop. */
__attribute__((noinline)) static double stats(const double *x, int n,
                                              double *mean, double *dev) {
  double s = 0, q = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i];
    q += x[i] * x[i];
    if (dev)
      dev[i] = x[i] * x[i] - x[i];
  }
  if (mean)
    *mean = s / n;
  return q;
}

/* NULL only. */
static double only_null(const double *x) { return model(x, NULL) + x[1]; }

/* NULL at one call, a real pointer at the other: two derivatives of model,
 * and the real output's derivative flows on. */
static double mixed(const double *x) {
  double a;
  return model(x, NULL) + model(x, &a) * a + x[1];
}

static double stats_calls(const double *x) {
  double mean, dev[4];
  double q = stats(x, 4, NULL, NULL);
  q += stats(x, 4, &mean, NULL) * mean;
  q += stats(x, 4, NULL, dev) * dev[2];
  return q;
}

int main(void) {
  CHECK_GRAD_AND_DOT(only_null, 2, 1.0);
  CHECK_GRAD_AND_DOT(mixed, 2, 1.0);
  CHECK_GRAD_AND_DOT(stats_calls, 4, 1.0);
  {
    double x[2] = {0.5, 1.5}, g[2] = {0, 0};
    __enzyme_autodiff((void *)only_null, x, g);
    CHECK_CLOSE(g[0], (cos(x[0]) * x[0] + sin(x[0])) * x[1], REV_TOL_EXACT);
    CHECK_CLOSE(g[1], sin(x[0]) * x[0] + 1, REV_TOL_EXACT);
  }
  return check_finish();
}
