/* PENDING (not registered): batched reverse mode (enzyme_width with
 * __enzyme_autodiff).  Until the 21:04 build the width was silently ignored
 * (only the first shadow received the adjoint: b = {0, 0}); since the 21:09
 * build it is a clean error ("enzyme_width (batched gradients) is not
 * supported yet in reverse mode; call __enzyme_autodiff once per
 * direction").  Kept as the acceptance test: both shadows = {6, 2.25}. */
#include "rev_check.h"

static double n2(const double *x) { return x[0] * x[0] * x[1]; }

int main(void) {
  double x[2] = {1.5, 2.0}, a[2] = {0}, b[2] = {0};
  __enzyme_autodiff((void *)n2, enzyme_width, 2, x, a, b);
  CHECK_CLOSE(a[0], 6.0, REV_TOL_EXACT);
  CHECK_CLOSE(a[1], 2.25, REV_TOL_EXACT);
  CHECK_CLOSE(b[0], 6.0, REV_TOL_EXACT);
  CHECK_CLOSE(b[1], 2.25, REV_TOL_EXACT);
  return check_finish();
}
