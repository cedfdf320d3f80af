// Exceptions that carry values computed from active inputs (throw x;
// throw Bad{3, x}): the primal value is thrown from the derivative as from
// the function, and no derivative flows through the exception object. Both
// modes; a caller catches it.
#include "rev_check.h"

struct Bad {
  int code;
  double value;
};

static double f(double x) {
  if (x > 10)
    throw x * 2;
  return x * x;
}
static double g(double x) {
  double y = sin(x) * x;
  if (y > 5)
    throw Bad{3, y};
  return y * y;
}

int main() {
  CHECK_CLOSE(__enzyme_autodiff((void *)f, 3.0), 6.0, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, 3.0, 1.0), 6.0, REV_TOL_EXACT);
  double got = 0;
  try {
    __enzyme_autodiff((void *)f, 11.0);
  } catch (double d) {
    got = d;
  }
  CHECK_CLOSE(got, 22.0, 0);
  got = 0;
  try {
    __enzyme_fwddiff((void *)f, 11.0, 1.0);
  } catch (double d) {
    got = d;
  }
  CHECK_CLOSE(got, 22.0, 0);
  double x = 1.2, y = sin(x) * x;
  double dy = cos(x) * x + sin(x);
  CHECK_CLOSE(__enzyme_autodiff((void *)g, x), 2 * y * dy, REV_TOL_EXACT);
  Bad caught = {0, 0};
  try {
    __enzyme_autodiff((void *)g, 7.8);
  } catch (const Bad &b) {
    caught = b;
  }
  CHECK_TRUE(caught.code == 3);
  CHECK_CLOSE(caught.value, sin(7.8) * 7.8, 0);
  return check_finish();
}
