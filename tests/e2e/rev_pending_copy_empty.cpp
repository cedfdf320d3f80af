// PENDING (not registered): at -O0, copying a 1-byte object with no data
// (a struct whose only member is an empty comparator, as libstdc++'s
// __gnu_cxx::__ops::_Iter_comp_iter<lambda>) is a 1-byte llvm.memcpy that
// reverse mode rejects:
//   error: cannot differentiate 'f(double const*)' in reverse mode: a
//   memory copy whose contents cannot be typed; copy the values one by one
// It holds no floating-point data and should be inactive.  This is what
// rejects std::sort with a lambda comparator at -O0 (at -O2 std::sort is
// rejected by the integer-copy check: rev_pending_int_copy.c).
// Also at -O0: copying a std::complex<double> (`complex<_Tp> __r = __x;` in
// operator*(complex, double)) is "a memory copy whose contents cannot be
// typed" (cplx).
#include "rev_check.h"

#include <algorithm>
#include <complex>

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

static double cplx(double x) {
  std::complex<double> z(x, 2 * x);
  z = z + std::conj(z) * 3.0;
  return std::real(z) * std::imag(z);
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
  // z = (4x, -4x): -16 x^2
  CHECK_CLOSE(__enzyme_autodiff((void *)cplx, 0.5), -32 * 0.5, 1e-14);
  return check_finish();
}
