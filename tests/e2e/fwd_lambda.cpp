// PENDING (not registered): at -O0 a captureless lambda converted to a
// function pointer with unary + is rejected: "the first argument of
// __enzyme_fwddiff must name a function known at compile time" (the
// conversion is a call to the lambda's conversion operator at -O0; it is
// folded at -O1 and above, where this passes).
#include "fwd_check.h"

int main() {
  auto cube = [](double x) { return x * x * x; };
  CHECK_CLOSE(__enzyme_fwddiff((void *)+cube, 3.0, 1.0), 27.0, FWD_TOL_EXACT);
  return check_finish();
}
