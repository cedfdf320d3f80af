// The elementary functions of std::complex<double> and <float>: exp, log,
// sqrt, pow (complex and real exponents), sin, cos, tan, sinh, cosh, tanh.
// libstdc++ calls C99's cexp, clog, csqrt, cpow, csin, ... for them, which
// adcc differentiates through its own bodies (adcore/lib/ComplexRuntime.cpp).
// Each is holomorphic: with f = u + iv and z = a + ib, the derivative of
// L = u + 2v is dL/da = Re f' + 2 Im f', dL/db = 2 Re f' - Im f'
// (Cauchy-Riemann), f' computed here in closed form. Gradients against
// those values and central differences; forward mode against reverse mode
// (dot-product test); sqrt on both of its branches (Re z >= 0 and < 0).
#include "rev_check.h"

#include <complex>

using cd = std::complex<double>;
using cf = std::complex<float>;

enum fn { Exp, Log, Sqrt, Sin, Cos, Tan, Sinh, Cosh, Tanh, Count };

template <typename C> static C apply(int k, C z) {
  switch (k) {
  case Exp:
    return std::exp(z);
  case Log:
    return std::log(z);
  case Sqrt:
    return std::sqrt(z);
  case Sin:
    return std::sin(z);
  case Cos:
    return std::cos(z);
  case Tan:
    return std::tan(z);
  case Sinh:
    return std::sinh(z);
  case Cosh:
    return std::cosh(z);
  default:
    return std::tanh(z);
  }
}

// f'(z) in closed form
static cd derivative(int k, cd z) {
  switch (k) {
  case Exp:
    return std::exp(z);
  case Log:
    return 1.0 / z;
  case Sqrt:
    return 0.5 / std::sqrt(z);
  case Sin:
    return std::cos(z);
  case Cos:
    return -std::sin(z);
  case Tan:
    return 1.0 / (std::cos(z) * std::cos(z));
  case Sinh:
    return std::cosh(z);
  case Cosh:
    return std::sinh(z);
  default:
    return 1.0 / (std::cosh(z) * std::cosh(z));
  }
}

// One function per case: the differentiated function is known where it is
// asked for.
#define CASE(K)                                                                \
  static double f_##K(const double *v) {                                       \
    cd r = apply(K, cd(v[0], v[1]));                                           \
    return r.real() + 2 * r.imag();                                            \
  }                                                                            \
  static float g_##K(const float *v) {                                         \
    cf r = apply(K, cf(v[0], v[1]));                                           \
    return r.real() + 2 * r.imag();                                            \
  }
CASE(Exp)
CASE(Log)
CASE(Sqrt)
CASE(Sin)
CASE(Cos)
CASE(Tan)
CASE(Sinh)
CASE(Cosh)
CASE(Tanh)

// pow(z, w) = exp(w log z): d/dz = w z^(w-1), d/dw = log(z) z^w
static double f_pow(const double *v) {
  cd r = std::pow(cd(v[0], v[1]), cd(v[2], v[3]));
  return r.real() + 2 * r.imag();
}
// and a real exponent, and a mix with arithmetic
static double f_mix(const double *v) {
  cd z(v[0], v[1]);
  cd r = std::pow(z, 2.5) + std::exp(z) * std::log(z * z + 1.0) /
                                std::sqrt(z + 3.0);
  return std::abs(r) + std::arg(r);
}

static void exact_grad(int k, const double *v, double *g) {
  cd d = derivative(k, cd(v[0], v[1]));
  g[0] = d.real() + 2 * d.imag();
  g[1] = 2 * d.real() - d.imag();
}

#define CHECK_CASE(K)                                                          \
  do {                                                                         \
    for (const double *p : points) {                                           \
      double v[2] = {p[0], p[1]}, g[2] = {0, 0}, e[2], dir[2];                 \
      __enzyme_autodiff((void *)f_##K, v, g);                                  \
      exact_grad(K, v, e);                                                     \
      CHECK_GRAD_TOL(f_##K, v, 2, g, e, 1e-6);                                 \
      double want = rev_dir(g, dir, 2);                                        \
      CHECK_CLOSE(__enzyme_fwddiff((void *)f_##K, v, dir), want, 1e-11);       \
      float vf[2] = {(float)p[0], (float)p[1]}, gf[2] = {0, 0};                \
      __enzyme_autodiff((void *)g_##K, vf, gf);                                \
      CHECK_CLOSE(gf[0], e[0], 2e-4);                                          \
      CHECK_CLOSE(gf[1], e[1], 2e-4);                                          \
    }                                                                          \
  } while (0)

int main() {
  // (Re z < 0 takes sqrt's other branch; away from log's cut on Re z < 0.)
  static const double points[][2] = {
      {0.7, 0.4}, {-0.9, 0.6}, {1.3, -0.8}, {-0.5, -1.1}};
  CHECK_CASE(Exp);
  CHECK_CASE(Log);
  CHECK_CASE(Sqrt);
  CHECK_CASE(Sin);
  CHECK_CASE(Cos);
  CHECK_CASE(Tan);
  CHECK_CASE(Sinh);
  CHECK_CASE(Cosh);
  CHECK_CASE(Tanh);

  double v[4] = {0.8, 0.3, 1.4, -0.6}, g[4] = {0}, dir[4];
  __enzyme_autodiff((void *)f_pow, v, g);
  cd z(v[0], v[1]), w(v[2], v[3]), r = std::pow(z, w);
  cd dz = w * r / z, dw = std::log(z) * r;
  double e[4] = {dz.real() + 2 * dz.imag(), 2 * dz.real() - dz.imag(),
                 dw.real() + 2 * dw.imag(), 2 * dw.real() - dw.imag()};
  CHECK_GRAD(f_pow, v, 4, g, e);
  double want = rev_dir(g, dir, 4);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f_pow, v, dir), want, 1e-11);

  double m[2] = {0.6, -0.7}, gm[2] = {0, 0}, dm[2];
  __enzyme_autodiff((void *)f_mix, m, gm);
  CHECK_GRAD(f_mix, m, 2, gm, NULL);
  want = rev_dir(gm, dm, 2);
  CHECK_CLOSE(__enzyme_fwddiff((void *)f_mix, m, dm), want, 1e-11);

  // sqrt at 0: the value 0, the derivative 0 (docs/rules.md)
  double zero[2] = {0, 0}, gz[2] = {0, 0};
  __enzyme_autodiff((void *)f_Sqrt, zero, gz);
  CHECK_CLOSE(gz[0], 0, 0);
  CHECK_CLOSE(gz[1], 0, 0);
  CHECK_CLOSE(f_Sqrt(zero), 0, 0);
  return check_finish();
}
