// Idiom corpus, C++ standard-library numerics: std::inner_product and
// std::transform_reduce with lambdas, std::partial_sum then
// std::adjacent_difference with a product, std::accumulate with lambdas,
// std::min_element / max_element / minmax_element at ties (the first
// minimum, the first maximum, minmax's last maximum), std::clamp,
// three-argument std::hypot, std::fma, std::max of a list, std::array of
// std::array, std::span views (C++20), a std::map<double, double> table
// interpolated through upper_bound, a std::deque window. Each through
// __enzyme_autodiff / __enzyme_fwddiff (probe_check.h) and through
// <adcc.hpp>'s adcc::gradient and adcc::forward.
#include "probe_check.h"

#include <adcc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <numeric>
#include <span>
#include <vector>

static double f_inner(const double *x) {
  std::vector<double> a(x, x + 4), b(x + 4, x + 8);
  double ip = std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
  double tr = std::transform_reduce(
      a.begin(), a.end(), b.begin(), 1.0, std::multiplies<>(),
      [](double u, double v) { return u - v * v; });
  return ip * tr;
}
static double f_prefix(const double *x) {
  std::array<double, 6> a, ps, ad;
  std::copy(x, x + 6, a.begin());
  std::partial_sum(a.begin(), a.end(), ps.begin());
  std::adjacent_difference(ps.begin(), ps.end(), ad.begin(),
                           [](double u, double v) { return u * v; });
  return std::accumulate(ad.begin(), ad.end(), 0.0,
                         [](double s, double v) { return s + std::sin(v); }) +
         std::accumulate(ps.begin(), ps.end(), 1.0, std::multiplies<double>());
}
static double f_extremes(const double *x) {
  std::vector<double> v(x, x + 5);
  auto mn = std::min_element(v.begin(), v.end());
  auto mx = std::max_element(v.begin(), v.end());
  auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *mx * 2 + *mn * 3 + *lo * *hi;
}
static double f_clamp_hypot(const double *x) {
  double c = std::clamp(x[0], -0.5, 0.5) + std::clamp(x[1], x[2], x[3]);
  return c * std::hypot(x[0], x[1], x[2]) +
         std::fma(x[0], x[1], x[3]) * std::max({x[0], x[2], x[3]});
}
static double f_det3(const double *x) {
  std::array<std::array<double, 3>, 3> m{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      m[i][j] = x[i * 3 + j];
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}
static double squares(std::span<const double> s) {
  double r = 0;
  for (double v : s)
    r += v * v;
  return r;
}
static double f_span(const double *x) {
  std::span<const double> s(x, 6);
  return squares(s.first(3)) * squares(s.last(3)) + squares(s.subspan(1, 4));
}
static double f_table(const double *x) {
  std::map<double, double> table;
  for (int i = 0; i < 5; ++i)
    table[0.25 * i] = x[i];
  double t = 0.6 + 0.1 * x[5];
  auto hi = table.upper_bound(t), lo = std::prev(hi);
  double w = (t - lo->first) / (hi->first - lo->first);
  return (1 - w) * lo->second + w * hi->second;
}
static double f_window(const double *x) {
  std::deque<double> d;
  for (int i = 0; i < 20; ++i) {
    d.push_back(x[i % 4] * (i + 1));
    if (d.size() > 3)
      d.pop_front();
  }
  d.push_front(x[0]);
  double s = 0;
  for (double v : d)
    s = s * 0.5 + v * v;
  return s;
}

// adcc::gradient and adcc::forward of f at x against the Enzyme-style
// reverse gradient (a macro: f must be named where it is asked for)
#define CHECK_ADCC_API(f, n, ...)                                              \
  do {                                                                         \
    double x_[] = {__VA_ARGS__};                                               \
    double ref_[PROBE_MAX] = {0}, adj_[PROBE_MAX] = {0}, t_[PROBE_MAX];        \
    __enzyme_autodiff((void *)f, enzyme_dup, x_, ref_);                        \
    adcc::gradient(f, adcc::Duplicated<const double>(x_, adj_));               \
    for (int i_ = 0; i_ < (n); ++i_) {                                         \
      CHECK_CLOSE(adj_[i_], ref_[i_], 1e-12);                                  \
      std::fill(t_, t_ + PROBE_MAX, 0.0);                                      \
      t_[i_] = 1;                                                              \
      CHECK_CLOSE(adcc::forward(f, adcc::Dual<const double *>(x_, t_)),        \
                  ref_[i_], 1e-10);                                            \
    }                                                                          \
  } while (0)

int main() {
  PROBE(f_inner, 8, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1);
  PROBE(f_prefix, 6, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8);
  PROBE(f_extremes, 5, 0.3, -0.4, 0.5, 0.6, -0.7);
  {
    // x = (0.6, -0.7, 0.6, -0.7, 0.6): max_element is x0 (2), min_element
    // x1 (3), minmax_element's min x1 (times 0.6) and max x4 (times -0.7)
    double exact[5] = {2, 3 + 0.6, 0, 0, -0.7};
    PROBE_AT(f_extremes, 5, exact, 0, 0.6, -0.7, 0.6, -0.7, 0.6);
  }
  PROBE(f_clamp_hypot, 4, 0.3, -0.4, 0.5, 0.6);
  PROBE(f_clamp_hypot, 4, 0.7, -0.4, -0.5, 0.6);
  PROBE(f_det3, 9, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1, 0.2);
  PROBE(f_span, 6, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8);
  PROBE(f_table, 6, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8);
  PROBE(f_window, 4, 0.3, -0.4, 0.5, 0.6);
  CHECK_ADCC_API(f_inner, 8, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1);
  CHECK_ADCC_API(f_table, 6, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8);
  CHECK_ADCC_API(f_window, 4, 0.3, -0.4, 0.5, 0.6);
  return check_finish();
}
