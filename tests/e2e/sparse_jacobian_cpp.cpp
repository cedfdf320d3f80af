// Dense views in C++ as Enzyme's users write them: templated declarations
// of __enzyme_todense and __enzyme_fwddiff (mangled names), callbacks that
// take the triplets by reference (a pointer passed in the view's extra
// arguments) and always_inline seeds. The Jacobian of
// y_i = x_i^2 * x_{i-1} (x_{-1} = 2) against its analytic entries.
#include "check.h"

#include <cstdint>
#include <vector>

struct Triplet {
  long row, col;
  double val;
};

template <typename T, typename... Tys> extern T __enzyme_todense(Tys...) noexcept;
template <typename T, typename... Tys>
extern T __enzyme_fwddiff(void *, Tys...) noexcept;
extern int enzyme_dup, enzyme_const;

__attribute__((always_inline)) static double one_hot(int64_t k, size_t j) {
  return k / int64_t(sizeof(double)) == int64_t(j) ? 1.0 : 0.0;
}
__attribute__((always_inline)) static void never(double, int64_t, size_t) {}
static double none(int64_t, size_t, std::vector<Triplet> &) { return 0; }
static void keep(double v, int64_t k, size_t j, std::vector<Triplet> &t) {
  if (v != 0)
    t.push_back({long(k / int64_t(sizeof(double))), long(j), v});
}

template <typename T> static void f(const T *x, T *y, size_t n) {
  for (size_t i = 0; i < n; ++i)
    y[i] = x[i] * x[i] * (i ? x[i - 1] : T(2));
}

int main() {
  const size_t n = 7;
  double x[n], y[n];
  for (size_t i = 0; i < n; ++i)
    x[i] = 0.5 + 0.25 * double(i);
  std::vector<Triplet> t;
  for (size_t j = 0; j < n; ++j) {
    double *dx = __enzyme_todense<double *>((void *)one_hot, (void *)never, j);
    double *dy = __enzyme_todense<double *>((void *)none, (void *)keep, j, &t);
    __enzyme_fwddiff<void>((void *)f<double>, enzyme_dup, x, dx, enzyme_dup, y,
                           dy, enzyme_const, n);
  }
  double J[n][n] = {};
  for (const Triplet &e : t)
    J[e.row][e.col] += e.val;
  CHECK_TRUE(t.size() == 2 * n - 1);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      double left = i ? x[i - 1] : 2.0;
      double want = j == i ? 2 * x[i] * left
                           : (i && j == i - 1 ? x[i] * x[i] : 0.0);
      CHECK_CLOSE(J[i][j], want, 1e-14);
    }
  return check_finish();
}
