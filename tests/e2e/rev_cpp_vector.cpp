// Reverse mode through std::vector built inside the differentiated function
// (adcc++): constructed from a pointer range and transformed in place,
// grown by push_back past its capacity (reallocation, moves), a vector of
// vectors built with emplace_back and push_back, all destroyed on return
// (invokes and cleanup landing pads at -O0).  Closed forms, central
// differences and forward mode.
#include "rev_check.h"

#include <cmath>
#include <vector>

static double vnorm(const double *x, int n) {
  std::vector<double> v(x, x + n);
  for (auto &e : v)
    e = e * e;
  double s = 0;
  for (double e : v)
    s += e;
  return std::sqrt(s);
}
static double vnorm_arr(const double *x) { return vnorm(x, 5); }
static double grow(double x, int n) {
  std::vector<double> v;
  v.push_back(x);
  for (int i = 1; i < n; ++i)
    v.push_back(v.back() * x + 1.0);
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i)
    s += v[i] / double(i + 1);
  return s;
}
static int g_n = 37;
static double grow_arr(const double *x) { return grow(x[0], g_n); }
// a vector of vectors built inside
static double vv(const double *x, int n) {
  std::vector<std::vector<double>> m;
  for (int i = 0; i < n; ++i) {
    m.emplace_back();
    for (int j = 0; j <= i; ++j)
      m.back().push_back(x[i] * x[j]);
  }
  double s = 0;
  for (auto &row : m)
    for (double e : row)
      s += std::sqrt(1 + e * e);
  return s;
}
static double vv_arr(const double *x) { return vv(x, 5); }

int main() {
  double x5[5] = {0.3, -0.8, 1.2, 0.5, -0.1};
  {
    double dx[5] = {0}, e[5], n = 0;
    __enzyme_autodiff((void *)vnorm, x5, dx, 5);
    for (int i = 0; i < 5; ++i)
      n += x5[i] * x5[i];
    for (int i = 0; i < 5; ++i)
      e[i] = x5[i] / std::sqrt(n);
    CHECK_GRAD(vnorm_arr, x5, 5, dx, e);
    double v[5];
    rev_dir(dx, v, 5);
    CHECK_DOT(dx, v, 5, __enzyme_fwddiff((void *)vnorm, x5, v, 5));
  }
  {
    double x[1] = {0.9};
    double g[1] = {__enzyme_autodiff((void *)grow, x[0], g_n)};
    CHECK_GRAD(grow_arr, x, 1, g, nullptr);
    CHECK_CLOSE(g[0], __enzyme_fwddiff((void *)grow, x[0], 1.0, g_n),
                REV_TOL_EXACT);
  }
  {
    double dx[5] = {0};
    __enzyme_autodiff((void *)vv, x5, dx, 5);
    CHECK_GRAD(vv_arr, x5, 5, dx, nullptr);
    double v[5];
    rev_dir(dx, v, 5);
    CHECK_DOT(dx, v, 5, __enzyme_fwddiff((void *)vv, x5, v, 5));
  }
  return check_finish();
}
