/* Regression: at -O3, loop unswitching inserts
 * `freeze double` on a loaded input and the reverse sweep passes no adjoint
 * through the freeze: dx[1] = 0, want 1 (both branches).  The IR handed to
 * adcc at -O3:
 *   %3 = load double, ptr %2
 *   %4 = freeze double %3
 *   %5 = fcmp ogt double %4, 6.100000e-01
 *   ...
 *   %10 = fadd double %4, %9
 * -O0..-O2 are right, and forward mode is right at -O3.  (Found by a
 * random-program dot-product test.) */
#include "rev_check.h"

static double f(const double *x) {
  double p = x[0], r = x[1];
  for (int i = 0; i < 3; ++i)
    if (!(r > 0.61))
      p = 2;
  return p + r;
}

int main(void) {
  double x[2] = {0.3, 0.2}, dx[2] = {0};
  __enzyme_autodiff((void *)f, x, dx);
  CHECK_CLOSE(dx[0], 0.0, REV_TOL_EXACT);
  CHECK_CLOSE(dx[1], 1.0, REV_TOL_EXACT);
  double y[2] = {0.3, 0.7}, dy[2] = {0};
  __enzyme_autodiff((void *)f, y, dy);
  CHECK_CLOSE(dy[0], 1.0, REV_TOL_EXACT);
  CHECK_CLOSE(dy[1], 1.0, REV_TOL_EXACT);
  return check_finish();
}
