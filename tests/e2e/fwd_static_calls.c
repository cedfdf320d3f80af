/* Static functions that are not inlined (noinline, or recursive) get the
 * fastcc calling convention from -O1 on; the derivative's calls to their
 * derivatives must use it too (they once did not: 'unreachable' or wrong
 * values, 2 and 3 instead of 12 and 27). */
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
