// PENDING (not registered): at -O0, copying a std::complex<double>
// (`complex<_Tp> __r = __x;` in operator*(complex, double)) is a 16-byte
// llvm.memcpy whose contents the type analysis cannot type (no TBAA at -O0,
// and the C++ signature's std::complex<double> is not seeded), so reverse
// mode rejects it: "a memory copy whose contents cannot be typed". -O1 and
// up are right.
#include "rev_check.h"

#include <complex>

static double cplx(double x) {
  std::complex<double> z(x, 2 * x);
  z = z + std::conj(z) * 3.0;
  return std::real(z) * std::imag(z);
}

int main() {
  // z = (4x, -4x): -16 x^2
  CHECK_CLOSE(__enzyme_autodiff((void *)cplx, 0.5), -32 * 0.5, 1e-14);
  return check_finish();
}
