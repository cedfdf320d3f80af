// std::function in reverse mode, at every level: a lambda chosen at run time,
// stored in std::function and called through it. Its manager copies the
// lambda's captured double out of std::function's untyped 16-byte storage
// as an i64 whose TBAA says double (IntegerCopies.cpp); that copy was an
// error ("a floating-point value is copied as an integer") while this test
// was not registered. At -O0 std::swap of the storage is typed only by
// the callers it is inlined into: differentiated from simplified copies
// (docs/reverse-mode.md, "Code compiled at -O0").
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
