// A captureless lambda converted to a function pointer with unary + and
// differentiated in forward mode (at -O0 the conversion is a call to the
// lambda's conversion operator, once rejected as "not a function known at
// compile time"; this test was kept unregistered after that was fixed).
#include "fwd_check.h"

int main() {
  auto cube = [](double x) { return x * x * x; };
  CHECK_CLOSE(__enzyme_fwddiff((void *)+cube, 3.0, 1.0), 27.0, FWD_TOL_EXACT);
  return check_finish();
}
