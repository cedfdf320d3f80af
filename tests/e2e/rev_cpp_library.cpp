// C++ library types inside differentiated code, in both modes, at every
// level: std::function holding lambdas that capture by reference (and its
// copies), std::unique_ptr moved inside a std::vector, std::valarray
// expressions, and std::optional<double> copied by value. At -O0 their
// helpers copy the objects' bytes in functions of their own (managers,
// move constructors, closures returned as structs), which adcc typed only
// once the optimizer had inlined them: -O0 refused them as "a memory copy
// whose contents cannot be typed" until functions calling such helpers
// were differentiated from simplified copies (docs/reverse-mode.md, "Code
// compiled at -O0"); optional<double>'s {double, bool} result lost its
// derivative in reverse mode at every level (a reverse sweep without a
// seed). Gradients against central differences, forward mode along a
// random direction (dot-product test).
#include "rev_check.h"

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <valarray>
#include <vector>

// std::function: lambdas capturing by reference, the std::function copied
// and reassigned (its manager clones and destroys the stored lambda).
static double function_refs(const double *x) {
  double a = x[0], b = x[1];
  std::function<double(double)> f = [&a, &b](double t) {
    return a * std::sin(t) + b * t;
  };
  std::function<double(double)> g = f;
  double s = f(x[2]) + g(a * b);
  a = 2 * x[3];
  g = [&](double t) { return std::exp(0.5 * t) * a - b; };
  return s + g(x[2]) * f(x[3]);
}

struct cell {
  double v, w;
};

// std::unique_ptr in a std::vector: moved when the vector grows, moved
// out of it, erased (the others moved down).
static double unique_cells(const double *x) {
  std::vector<std::unique_ptr<cell>> cells;
  for (int i = 0; i < 5; ++i)
    cells.push_back(std::make_unique<cell>(cell{x[i], x[i] * x[i]}));
  std::unique_ptr<cell> first = std::move(cells[0]);
  cells.erase(cells.begin());
  double s = first->v * first->w;
  for (const std::unique_ptr<cell> &c : cells)
    s += std::cos(c->v) * c->w;
  return s;
}

// std::valarray: arithmetic expressions, a math function applied to all
// elements, a slice, reductions.
static double valarray_sums(const double *x) {
  std::valarray<double> v(x, 4);
  std::valarray<double> w = v * v + 2.0 * v;
  std::valarray<double> e = std::exp(0.5 * v) * w;
  std::valarray<double> odd = v[std::slice(1, 2, 2)];
  return e.sum() + (v * w).sum() + odd.max() * odd.min();
}

// std::optional<double>: returned, copied by value, read with value_or
// and has_value.
static std::optional<double> root_of(double t) {
  if (t < 0)
    return std::nullopt;
  return std::sqrt(t);
}

static double optional_roots(const double *x) {
  std::optional<double> r = root_of(x[0] * x[0] + 1);
  std::optional<double> c = r;
  double s = c.value_or(0) * x[1];
  std::optional<double> none = root_of(-1 - x[1] * x[1]);
  if (!none.has_value())
    s += x[2] * x[2];
  std::optional<double> d;
  d = c;
  return s + none.value_or(x[3]) * *d;
}

int main() {
  CHECK_GRAD_AND_DOT(function_refs, 4, 1.0);
  CHECK_GRAD_AND_DOT(unique_cells, 5, 1.0);
  CHECK_GRAD_AND_DOT(valarray_sums, 4, 1.0);
  CHECK_GRAD_AND_DOT(optional_roots, 4, 1.0);
  return check_finish();
}
