// PENDING (not registered): std::complex<double> multiplication, division,
// abs and arg call the compiler-rt/libm functions __muldc3, __divdc3, cabs
// and carg, which have no derivative rule ("the external function
// '__muldc3' has no body and no derivative rule"; the diagnostic also names
// the caller by its mangled name).
#include "fwd_check.h"

#include <complex>

static double complex_fn(double x) {
  std::complex<double> z(x, 0.5 * x), w(1.0, -x);
  std::complex<double> r = z * z * w + z / w;
  return r.real() + 2 * r.imag();
}
static double complex_fn_d(double x) {
  std::complex<double> z(x, 0.5 * x), w(1.0, -x), dz(1, 0.5), dw(0, -1);
  std::complex<double> d =
      2.0 * z * dz * w + z * z * dw + (dz * w - z * dw) / (w * w);
  return d.real() + 2 * d.imag();
}
static double complex_math(double x) {
  std::complex<double> z(x, 1.0);
  return std::abs(z) + std::norm(z) + std::arg(z);
}

int main() {
  for (double x : {-1.3, 0.6, 1.7}) {
    CHECK_TANGENT(__enzyme_fwddiff((void *)complex_fn, x, 1.0),
                  complex_fn_d(x), complex_fn, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)complex_math, x, 1.0),
                  x / std::sqrt(x * x + 1) + 2 * x - 1 / (x * x + 1),
                  complex_math, x);
  }
  return check_finish();
}
