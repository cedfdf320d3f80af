/* Regression (derivative fuzzer, seed 3): at -O1 and above the ternary
 * below becomes a select between a pointer into a local array that holds
 * only constants and a pointer into the duplicated x, followed by one
 * load. The activity analysis took the select for a stack-only pointer and
 * dropped x's derivative (forward and reverse gave 0). Both branches are
 * checked, forward and reverse, against the closed form. */
#include "rev_check.h"

static double f(const double *x, int n) {
  double a[6];
  for (int j = 0; j < 6; j++)
    a[j] = 1.0;
  double v = (n < 2) ? a[n] : x[1];
  return v * v;
}

int main(void) {
  for (int n = 0; n <= 2; n += 2) {
    double x[2] = {0.5, -0.3}, dx[2] = {0, 0}, v[2] = {0, 1};
    double want = n < 2 ? 0 : 2 * x[1];
    double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, n);
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
    printf("n=%d: forward %g, reverse %g, expected %g\n", n, fw, dx[1], want);
    CHECK_CLOSE(fw, want, 1e-15);
    CHECK_CLOSE(dx[1], want, 1e-15);
    CHECK_CLOSE(dx[0], 0.0, 1e-15);
  }
  return check_finish();
}
