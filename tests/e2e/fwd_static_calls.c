/* PENDING (not registered): at -O1 and above a static function that is not
 * inlined (noinline, or recursive) gets the fastcc calling convention; the
 * derivative's call to its derivative is emitted without it, which is
 * undefined behaviour: the caller's derivative becomes 'unreachable' or a
 * wrong value (2 and 3 instead of 12 and 27).  Passes at -O0. */
#include "fwd_check.h"

__attribute__((noinline)) static double cube_ni(double v) { return v * v * v; }
static double calls_static(double x) { return cube_ni(x) + cube_ni(2.0); }

static double rpow(double x, int n) { return n == 0 ? 1 : x * rpow(x, n - 1); }
static double calls_recursive(double x) { return rpow(x, 3); }

int main(void) {
  CHECK_CLOSE(__enzyme_fwddiff((void *)calls_static, 2.0, 1.0), 12.0,
              FWD_TOL_EXACT);
  CHECK_CLOSE(__enzyme_fwddiff((void *)calls_recursive, 3.0, 1.0), 27.0,
              FWD_TOL_EXACT);
  return check_finish();
}
