// C++ values of 9 to 16 bytes passed by value to the function a request
// names: std::complex<double>, a small class with methods, a template
// instantiation, an empty tag struct (which the ABI drops), and a request
// made inside a function template. Forward against reverse and against
// analytic values.
#include "check.h"
#include <complex>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_fwddiff(void *, ...);
template <typename R> R __enzyme_autodiff(void *, ...);

struct Vec2 {
  double x, y;
  double dot(Vec2 o) const { return x * o.x + y * o.y; }
};
struct Tag {};

static double energy(std::complex<double> z) {
  return std::norm(z) * z.real() + std::exp(z.imag());
}
static double spring(Vec2 p, Tag, double k) { return 0.5 * k * p.dot(p); }
template <typename T> T cubic(Vec2 p, T s) { return s * p.x * p.x * p.y; }

struct Grad {
  Vec2 dp;
  double ds;
};

template <typename T> T slope(Vec2 p, Vec2 dir) {
  return __enzyme_fwddiff((void *)cubic<T>, p, dir, T(2), T(0));
}

int main() {
  std::complex<double> z(0.6, -0.8);
  double dre = __enzyme_fwddiff((void *)energy, z, std::complex<double>(1, 0));
  double dim = __enzyme_fwddiff((void *)energy, z, std::complex<double>(0, 1));
  // norm(z) * re + exp(im): d/dre = 3 re^2 + im^2, d/dim = 2 re im + exp(im)
  CHECK_CLOSE(dre, 3 * 0.36 + 0.64, 1e-12);
  CHECK_CLOSE(dim, 2 * 0.6 * -0.8 + std::exp(-0.8), 1e-12);
  std::complex<double> g =
      __enzyme_autodiff<std::complex<double>>((void *)energy, z);
  CHECK_CLOSE(g.real(), dre, 1e-12);
  CHECK_CLOSE(g.imag(), dim, 1e-12);

  Vec2 p{1.5, -2};
  double ds = __enzyme_fwddiff((void *)spring, p, Vec2{1, 0}, Tag{},
                               enzyme_const, 3.0);
  CHECK_CLOSE(ds, 3 * 1.5, 1e-12);
  Vec2 gp = __enzyme_autodiff<Vec2>((void *)spring, p, Tag{}, enzyme_const,
                                    3.0);
  CHECK_CLOSE(gp.x, 3 * 1.5, 1e-12);
  CHECK_CLOSE(gp.y, 3 * -2, 1e-12);

  // d/dp of s x^2 y along (0, 1): s x^2
  CHECK_CLOSE(slope<double>(p, Vec2{0, 1}), 2 * 2.25, 1e-12);
  Grad gc = __enzyme_autodiff<Grad>((void *)cubic<double>, p, 2.0);
  CHECK_CLOSE(gc.dp.x, 2 * 2 * 1.5 * -2, 1e-12);
  CHECK_CLOSE(gc.dp.y, 2 * 2.25, 1e-12);
  CHECK_CLOSE(gc.ds, 2.25 * -2, 1e-12);
  return check_finish();
}
