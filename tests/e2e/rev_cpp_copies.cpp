// Reverse mode through copies the optimizer or libstdc++ makes: a 1-byte
// copy of an empty comparator object (a struct whose only member is an
// empty lambda or functor, as in __gnu_cxx::__ops::_Iter_comp_iter) at
// -O0, which holds no floating-point data; and std::sort with a lambda,
// whose element moves become integer loads and stores at -O2 (floats
// copied as integers, followed through a floating-point view of the bits).
// Closed forms at every level.
#include "rev_check.h"

#include <algorithm>

struct Less {
  bool operator()(double a, double b) const { return a < b; }
};
struct Wrap {
  Less c;
};
static double pick(const double *x, Wrap w) {
  return w.c(x[0], x[1]) ? x[0] : x[1];
}
static double f(const double *x) {
  Wrap w{};
  return pick(x, w) * x[1]; // w is copied: a 1-byte memcpy at -O0
}

static double sorted(const double *x) {
  double a[5];
  std::copy(x, x + 5, a);
  std::sort(a, a + 5, [](double p, double q) { return p > q; });
  double s = 0;
  for (int i = 0; i < 5; ++i)
    s += a[i] * (i + 1);
  return s;
}

int main() {
  double x[2] = {1, 2}, dx[2] = {0};
  __enzyme_autodiff((void *)f, x, dx);
  CHECK_CLOSE(dx[0], 2.0, REV_TOL_EXACT);
  CHECK_CLOSE(dx[1], 1.0, REV_TOL_EXACT);
  double y[5] = {0.3, -1, 2, 0.5, 1.1}, dy[5] = {0}, e[5] = {4, 5, 1, 3, 2};
  __enzyme_autodiff((void *)sorted, y, dy);
  for (int i = 0; i < 5; ++i)
    CHECK_CLOSE(dy[i], e[i], REV_TOL_EXACT);
  return check_finish();
}
