/* pow(x, y) with x < 0 and y duplicated with a zero tangent: the tangent
 * y x^(y-1) dx, not NaN (the term x^y log(x) dy, with log(x) = NaN, once
 * made it NaN; with y enzyme_const: fwd_libm.c). */
#include "fwd_check.h"

static double w_pow(double x, double y) { return pow(x, y); }

int main(void) {
  CHECK_CLOSE(__enzyme_fwddiff((void *)w_pow, -1.5, 1.0, 3.0, 0.0), 6.75,
              FWD_TOL_EXACT);
  CHECK_CLOSE(__enzyme_fwddiff((void *)w_pow, -2.0, 1.0, 2.0, 0.0), -4.0,
              FWD_TOL_EXACT);
  return check_finish();
}
