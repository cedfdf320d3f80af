// PENDING (not registered): std::function in reverse mode at -O0: "a
// memory copy whose contents cannot be typed" in std::swap<std::_Any_data>
// (std::function's storage is a union of 16 bytes; that it holds the
// lambda's double is known only from the memcpy into it in another
// function, _M_create: typing it needs an interprocedural analysis of
// memory contents). The lambda's own copy in _M_create is typed now, from
// the stack variable the callers pass (CallerTypes.cpp). -O1 and up pass
// (the invokes through function pointers are dispatched:
// rev_invoke_indirect.cpp); the e2e harness always runs -O0.
#include "rev_check.h"

#include <cmath>
#include <functional>

static double via_function(double x, int k) {
  std::function<double(double)> f;
  if (k)
    f = [](double v) { return std::sin(v) * v; };
  else
    f = [x](double v) { return v * x; };
  return f(x) + f(2 * x);
}

int main() {
  double x = 0.8;
  double g1 = __enzyme_autodiff((void *)via_function, x, 1);
  CHECK_CLOSE(g1,
              std::cos(x) * x + std::sin(x) +
                  2 * (std::cos(2 * x) * 2 * x + std::sin(2 * x)),
              REV_TOL_EXACT);
  double g0 = __enzyme_autodiff((void *)via_function, x, 0);
  CHECK_CLOSE(g0, 2 * x + 4 * x, REV_TOL_EXACT); // x^2 + 2x^2
  return check_finish();
}
