// Variadic functions called with only their fixed arguments, into bodies
// that never read the others (prepare/VariadicCalls.cpp): libstdc++'s
// std::visit names its variant through such a lambda, a call at -O0 ("calls
// to the variadic function" before); a C-style helper declared with `...`
// for the same reason. A variadic function that reads its extras with
// active values stays a located error (lit errors/variadic-active.c).
#include "rev_check.h"

#include <array>
#include <cmath>
#include <variant>

using Shape = std::variant<double, std::array<double, 2>>;

static double area(const Shape &s) {
  return std::visit(
      [](auto &&v) -> double {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, double>)
          return 3.0 * v * v;
        else
          return v[0] * v[1];
      },
      s);
}

static double scaled(double v, int n, ...) { return v * v * n; }

static double f(const double *x) {
  Shape disc = x[0], rect = std::array<double, 2>{x[1], x[2]};
  return area(disc) + area(rect) * std::sin(x[0]) + scaled(x[2], 3);
}

int main() {
  double x[3] = {0.7, -0.4, 1.3}, dx[3] = {0}, v[3];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  // d/dx0 = 6 x0 + x1 x2 cos x0, d/dx1 = x2 sin x0, d/dx2 = x1 sin x0 + 6 x2
  double exact[3] = {6 * x[0] + x[1] * x[2] * std::cos(x[0]),
                     x[2] * std::sin(x[0]), x[1] * std::sin(x[0]) + 6 * x[2]};
  CHECK_GRAD(f, x, 3, dx, exact);
  double dir = rev_dir(dx, v, 3);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, v), dir, REV_TOL_DOT);
  return check_finish();
}
