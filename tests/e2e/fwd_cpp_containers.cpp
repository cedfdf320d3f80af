// Forward mode through the C++ library's containers and smart pointers:
// std::map (its red-black tree is linked by out-of-line libstdc++
// functions, which the derivative calls again on the shadow tree),
// std::unordered_map (bucket arithmetic inactive), std::shared_ptr
// (atomic reference counts; at -O0 the control block comes from
// std::allocator::allocate, a function that returns a new block),
// std::unique_ptr<double[]>, std::vector<std::vector<double>>,
// std::tuple with a forwarded int key, std::max_element. Each tangent is
// checked against its closed form and central differences; reverse mode
// against the same.
#include "rev_check.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <vector>

static double with_map(double x) {
  std::map<int, double> m;
  m[1] = x;
  m[2] = x * x;
  m[3] = std::sin(x);
  double s = 0;
  for (auto &kv : m) // iterates through the tree
    s += kv.first * kv.second;
  return m[1] * m[2] + s;
}
static double with_umap(double x) {
  std::unordered_map<int, double> m;
  for (int k = 0; k < 20; ++k) // grows the bucket array
    m[k] = k * x;
  return m[1] + m[7] * x + m[19] * m[19];
}
static double with_shared(double x) {
  auto p = std::make_shared<double>(x);
  auto q = p;
  *q *= x;
  return *q * *p;
}
static double with_unique(double x) {
  auto p = std::make_unique<double[]>(3);
  p[0] = x;
  p[1] = x * x;
  p[2] = p[0] * p[1];
  return p[2];
}
static double with_nested(double x) {
  std::vector<std::vector<double>> a(3, std::vector<double>(2, x));
  a[1][1] = x * x;
  double s = 0;
  for (auto &r : a)
    for (double v : r)
      s += v;
  return s;
}
static double with_tuple(double x) {
  auto t = std::make_tuple(x, 2 * x, 3);
  return std::get<0>(t) * std::get<1>(t) * std::get<2>(t);
}
static double with_minmax(double x) { // at 1.5: max 2x, min x
  std::vector<double> v{x, 2 * x, x * x};
  return *std::max_element(v.begin(), v.end()) +
         *std::min_element(v.begin(), v.end());
}

typedef double (*scalar_fn)(double);
static scalar_fn g_f;
static double through(const double *x) { return g_f(x[0]); }

static void check(const char *name, scalar_fn f, double x, double t,
                  double exact) {
  g_f = f;
  double xs[1] = {x};
  double fd = fd_partial(through, xs, 0);
  if (!rev_close(t, exact, FWD_TOL_EXACT))
    rev_fail(__FILE__, __LINE__, name, 0, t, exact);
  if (!rev_close(t, fd, REV_TOL_FD))
    rev_fail(__FILE__, __LINE__, name, 1, t, fd);
  printf("%s: d/dx = %.12f\n", name, t);
}
// (A macro: the differentiated function must be known where it is asked
// for.)
#define CHECK_CONTAINER(name, f, x, exact)                                     \
  check(name, f, x, __enzyme_fwddiff((void *)f, x, 1.0), exact)

int main() {
  double x = 1.5;
  CHECK_CONTAINER("map", with_map, x,
                  3 * x * x + 1 + 2 * 2 * x + 3 * std::cos(x));
  CHECK_CONTAINER("unordered_map", with_umap, x, 1 + 14 * x + 2 * 19 * 19 * x);
  CHECK_CONTAINER("shared_ptr", with_shared, x, 4 * x * x * x);
  CHECK_CONTAINER("unique_ptr", with_unique, x, 3 * x * x);
  CHECK_CONTAINER("nested vector", with_nested, x, 5 + 2 * x);
  CHECK_CONTAINER("tuple", with_tuple, x, 12 * x);
  CHECK_CONTAINER("max/min_element", with_minmax, x, 3.0);
  // Reverse mode where it handles the container at every level.
  CHECK_CLOSE(__enzyme_autodiff((void *)with_unique, x), 3 * x * x,
              REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)with_tuple, x), 12 * x, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)with_minmax, x), 3.0, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)with_shared, x), 4 * x * x * x,
              REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)with_map, x),
              3 * x * x + 1 + 2 * 2 * x + 3 * std::cos(x), REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)with_umap, x),
              1 + 14 * x + 2 * 19 * 19 * x, REV_TOL_EXACT);
  CHECK_CLOSE(__enzyme_autodiff((void *)with_nested, x), 5 + 2 * x,
              REV_TOL_EXACT);
  return check_finish();
}
