// Reverse mode through the C++ standard library where adcc++ sees the code:
// std::max / std::min (references to the arguments), std::inner_product and
// std::accumulate with std::multiplies, double& output parameters, and
// std::array and std::pair returned by value.  (std::sort:
// rev_cpp_copies.cpp; std::complex: complex_arith.cpp.)
#include "rev_check.h"
#include <algorithm>
#include <array>
#include <complex>
#include <numeric>
#include <utility>
static double mm(double a, double b) {
  return std::max(a, b) * std::min(a, b) + std::max(a * a, 2.0);
}
static double ip(const double *x, const double *y) {
  return std::inner_product(x, x + 4, y, 0.0) *
         std::accumulate(x, x + 4, 1.0, std::multiplies<double>());
}
static void byref(double &out, const double &in) { out = in * in * out; }
static std::array<double, 3> arr3(double x) { return {x, x * x, x * x * x}; }
static double usearr3(double x) {
  auto a = arr3(x);
  return a[0] + a[1] + a[2];
}
static std::pair<double, double> pr(double x) {
  return {std::sin(x), std::cos(x)};
}
static double usepair(double x) {
  auto p = pr(x);
  return p.first * p.second;
}

int main() {
  rev_two t = __enzyme_autodiff2((void *)mm, 1.5, 0.5);
  CHECK_CLOSE(t.a, 0.5 + 3.0, 0);
  CHECK_CLOSE(t.b, 1.5, 0);
  t = __enzyme_autodiff2((void *)mm, 0.5, 1.5);
  CHECK_CLOSE(t.a, 1.5, 0);
  CHECK_CLOSE(t.b, 0.5, 0);
  CHECK_CLOSE(0.3 * t.a - 1.2 * t.b,
              __enzyme_fwddiff((void *)mm, 0.5, 0.3, 1.5, -1.2), REV_TOL_DOT);
  {
    double x[4] = {1, 2, 3, 4}, y[4] = {0.5, -1, 2, 1}, dx[4] = {0},
           dy[4] = {0};
    __enzyme_autodiff((void *)ip, x, dx, y, dy);
    double d = 0.5 - 2 + 6 + 4, p = 24;
    for (int i = 0; i < 4; ++i) {
      CHECK_CLOSE(dy[i], x[i] * p, 1e-12);
      CHECK_CLOSE(dx[i], y[i] * p + d * p / x[i], 1e-12);
    }
    {
      double vx[4], vy[4];
      double s = rev_dir(dx, vx, 4) + rev_dir(dy, vy, 4);
      CHECK_CLOSE(s, __enzyme_fwddiff((void *)ip, x, vx, y, vy), 1e-12);
    }
  }
  {
    double out = 2, dout = 1, in = 3, din = 0;
    __enzyme_autodiff_void((void *)byref, &out, &dout, &in, &din);
    CHECK_CLOSE(din, 12, 0);
    CHECK_CLOSE(dout, 9, 0);
  }
  CHECK_CLOSE(__enzyme_autodiff((void *)usearr3, 2.0), 1 + 4 + 12, 0);
  CHECK_CLOSE(__enzyme_autodiff((void *)usepair, 0.5), std::cos(1.0), 1e-14);
  return check_finish();
}
