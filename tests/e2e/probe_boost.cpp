// Idiom corpus, Boost: Boost.Math special functions (erf, erfc, hypot,
// tgamma, lgamma, log1p, expm1, the regularized incomplete gamma_p,
// cylindrical Bessel J and I, sinc_pi), whose error policies construct
// std::domain_error and std::overflow_error objects on paths not taken
// (these stopped the compile: no derivative of their constructors), and
// boost::numeric::ublas matrix-vector and matrix-matrix products, inner
// products and norms. Both modes, central differences and exact values
// (probe_check.h). Skipped (77) without Boost's headers (libboost-dev).
#include "probe_check.h"

#if __has_include(<boost/math/special_functions/bessel.hpp>) &&               \
    __has_include(<boost/numeric/ublas/matrix.hpp>)
// (uBLAS's iterators derive from std::iterator, deprecated in C++17)
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/special_functions/expm1.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <boost/math/special_functions/hypot.hpp>
#include <boost/math/special_functions/log1p.hpp>
#include <boost/math/special_functions/sinc.hpp>
#include <boost/numeric/ublas/matrix.hpp>
#include <boost/numeric/ublas/vector.hpp>

namespace bm = boost::math;
namespace ublas = boost::numeric::ublas;

static double f_erf(const double *x) {
  return bm::erf(x[0]) * bm::erfc(x[1]) + bm::hypot(x[0], x[1]);
}
static double f_gamma(const double *x) {
  return bm::tgamma(x[0]) + bm::lgamma(x[1]) + bm::log1p(x[0] * x[1]) +
         bm::expm1(x[1]);
}
static double f_gamma_p(const double *x) {
  return bm::gamma_p(2.5, x[0]) * x[1];
}
static double f_bessel(const double *x) {
  return bm::cyl_bessel_j(1.0, x[0]) + bm::cyl_bessel_i(0.0, x[1]) * x[0];
}
static double f_sinc(const double *x) { return bm::sinc_pi(x[0]) * x[1]; }
static double f_ublas(const double *x) {
  ublas::matrix<double> A(3, 3);
  ublas::vector<double> v(3);
  for (unsigned i = 0; i < 3; ++i) {
    v(i) = x[9 + i];
    for (unsigned j = 0; j < 3; ++j)
      A(i, j) = x[3 * i + j];
  }
  ublas::vector<double> w = ublas::prod(A, v);
  ublas::matrix<double> B = ublas::prod(A, ublas::trans(A));
  return ublas::inner_prod(w, v) + ublas::norm_2(w) +
         ublas::sum(ublas::prod(B, v));
}

int main() {
  {
    // d/dx0 erf(x0) erfc(x1) = 2/sqrt(pi) exp(-x0^2) erfc(x1) + x0/r
    double a = 0.3, b = -0.4, r = std::sqrt(a * a + b * b);
    double exact[2] = {
        2 / std::sqrt(M_PI) * std::exp(-a * a) * std::erfc(b) + a / r,
        -std::erf(a) * 2 / std::sqrt(M_PI) * std::exp(-b * b) + b / r};
    PROBE_AT(f_erf, 2, exact, REV_TOL_FD, 0.3, -0.4);
  }
  PROBE(f_gamma, 2, 1.3, 2.4);
  {
    // d/dx P(a, x) = x^(a-1) e^-x / Gamma(a)
    double x0 = 1.3, a = 2.5;
    double exact[2] = {std::pow(x0, a - 1) * std::exp(-x0) / std::tgamma(a) *
                           2.4,
                       bm::gamma_p(a, x0)};
    PROBE_AT(f_gamma_p, 2, exact, REV_TOL_FD, 1.3, 2.4);
  }
  PROBE(f_bessel, 2, 1.3, 0.4);
  PROBE(f_sinc, 2, 0.3, 0.4);
  PROBE(f_ublas, 12, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8, 0.9, 1.1, 0.2, 0.1, -0.3,
        0.45);
  return check_finish();
}
#else
int main() {
  printf("Boost's headers not found (libboost-dev): not run\n");
  return 77;
}
#endif
