// std::complex<double> and <float> arithmetic in forward and reverse mode:
// multiplication and division (the runtime's __muldc3 / __divdc3 /
// __mulsc3 / __divsc3, differentiated through adcc's own bodies: the
// textbook product, Smith's division on both of its branches), abs, arg and
// norm (cabs, carg), and complex copies (a 16-byte memcpy at -O0).
// Tangents against closed forms and central differences; gradients against
// central differences and forward mode.
#include "rev_check.h"

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
static double complex_copy(double x) {
  std::complex<double> z(x, 2 * x);
  z = z + std::conj(z) * 3.0;
  return std::real(z) * std::imag(z);
}

// Two complex inputs (a + bi, c + di) from four doubles; the quotient takes
// Smith's |c| >= |d| branch or the other one depending on the point.
static double two(const double *v) {
  std::complex<double> p(v[0], v[1]), q(v[2], v[3]);
  std::complex<double> r = p * q + p / q - q / (p + 1.0);
  return r.real() * 0.7 - r.imag() + std::abs(r) + std::arg(q);
}
// The same in float and in double: the float gradient against the double
// one (central differences in float precision would be noise).
template <typename T> static T two_t(const T *v) {
  std::complex<T> p(v[0], v[1]), q(v[2], v[3]);
  std::complex<T> r = p * q + p / q;
  return r.real() - T(0.5) * r.imag() + std::abs(p);
}
static float two_f(const float *v) { return two_t(v); }
static double two_d(const double *v) { return two_t(v); }

int main() {
  for (double x : {-1.3, 0.6, 1.7}) {
    CHECK_TANGENT(__enzyme_fwddiff((void *)complex_fn, x, 1.0),
                  complex_fn_d(x), complex_fn, x);
    CHECK_TANGENT(__enzyme_fwddiff((void *)complex_math, x, 1.0),
                  x / std::sqrt(x * x + 1) + 2 * x - 1 / (x * x + 1),
                  complex_math, x);
    CHECK_CLOSE(__enzyme_autodiff((void *)complex_fn, x), complex_fn_d(x),
                1e-12);
    CHECK_CLOSE(__enzyme_autodiff((void *)complex_math, x),
                x / std::sqrt(x * x + 1) + 2 * x - 1 / (x * x + 1), 1e-12);
    // z = (4x, -4x): -16 x^2
    CHECK_CLOSE(__enzyme_autodiff((void *)complex_copy, x), -32 * x, 1e-12);
  }
  const double points[3][4] = {{0.8, -0.3, 1.5, 0.4},   // |c| >= |d|
                               {0.8, -0.3, 0.2, -1.1},  // |c| < |d|
                               {-1.2, 0.9, -0.7, 0.7}}; // on the tie
  for (const auto &p : points) {
    double v[4] = {p[0], p[1], p[2], p[3]}, g[4] = {0}, dir[4];
    __enzyme_autodiff((void *)two, v, g);
    CHECK_GRAD(two, v, 4, g, NULL);
    double s = rev_dir(g, dir, 4);
    CHECK_CLOSE(s, __enzyme_fwddiff((void *)two, v, dir), REV_TOL_DOT);

    float vf[4] = {(float)p[0], (float)p[1], (float)p[2], (float)p[3]};
    float gf[4] = {0};
    double gd[4] = {0};
    __enzyme_autodiff((void *)two_f, vf, gf);
    __enzyme_autodiff((void *)two_d, v, gd);
    CHECK_GRAD(two_d, v, 4, gd, NULL);
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE(gf[i], gd[i], 1e-5);
  }
  return check_finish();
}
