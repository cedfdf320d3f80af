// std::vector<bool> beside std::vector<double> in a helper that is not
// inlined: the type analysis reads `std::vector<double> const&` parameters
// as three pointers to doubles, and must not read vector<bool>'s
// (pointer, bit offset) iterators that way. Gradient against the analytic
// one and central differences, and forward mode (dot-product test).
#include "rev_check.h"

#include <vector>

__attribute__((noinline)) static double masked(const std::vector<bool> &m,
                                               const std::vector<double> &x) {
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i)
    if (m[i])
      s += x[i] * x[i];
  return s;
}

static double f(const double *in) {
  std::vector<double> x(in, in + 5);
  std::vector<bool> m = {true, false, true, true, false};
  std::vector<bool> copy = m;
  return masked(copy, x) + in[1];
}

int main() {
  CHECK_GRAD_AND_DOT(f, 5, 1.0);
  double in[5] = {1, 2, 3, 4, 5}, g[5] = {0};
  __enzyme_autodiff((void *)f, in, g);
  const double want[5] = {2, 1, 6, 8, 0};
  for (int i = 0; i < 5; ++i)
    CHECK_CLOSE(g[i], want[i], REV_TOL_EXACT);
  return check_finish();
}
