/* The double-precision libm cases shared by fwd_libm.c and rev_libm.c: a
 * reference digamma, a wrapper per function, the table of unary functions
 * with their closed-form derivatives and test points, and the wrappers of
 * the two-argument functions. */
#ifndef ADCC_E2E_LIBM_CASES_H
#define ADCC_E2E_LIBM_CASES_H

#include <math.h>

/* digamma for the derivatives of tgamma and lgamma: reflection for x < 0.5,
 * recurrence up to x >= 10, then the asymptotic series. */
static double digamma(double x) {
  if (x < 0.5)
    return digamma(1 - x) - M_PI / tan(M_PI * x);
  double r = 0;
  while (x < 10) {
    r -= 1 / x;
    x += 1;
  }
  double i2 = 1 / (x * x);
  return r + log(x) - 0.5 / x -
         i2 * (1.0 / 12 - i2 * (1.0 / 120 - i2 * (1.0 / 252 - i2 * (1.0 / 240 - i2 / 132))));
}

static double sgn(double x) { return x < 0 ? -1 : 1; }

/* name, closed-form derivative in x, three points */
#define UNARY(X)                                                               \
  X(sqrt, 0.5 / sqrt(x), 0.3, 1.0, 6.25)                                       \
  X(exp, exp(x), -0.7, 0.4, 2.3)                                               \
  X(exp2, exp2(x) * M_LN2, -0.7, 0.4, 2.3)                                     \
  X(expm1, exp(x), -0.7, 1e-3, 2.3)                                            \
  X(log, 1 / x, 0.3, 1.0, 7.5)                                                 \
  X(log2, 1 / (x * M_LN2), 0.3, 1.0, 7.5)                                      \
  X(log10, 1 / (x * M_LN10), 0.3, 1.0, 7.5)                                    \
  X(log1p, 1 / (1 + x), -0.7, 1e-3, 2.3)                                       \
  X(sin, cos(x), -0.7, 0.4, 2.3)                                               \
  X(cos, -sin(x), -0.7, 0.4, 2.3)                                              \
  X(tan, 1 / (cos(x) * cos(x)), -0.7, 0.4, 2.3)                                \
  X(asin, 1 / sqrt(1 - x * x), -0.7, 0.4, 0.9)                                 \
  X(acos, -1 / sqrt(1 - x * x), -0.7, 0.4, 0.9)                                \
  X(atan, 1 / (1 + x * x), -0.7, 0.4, 2.3)                                     \
  X(sinh, cosh(x), -0.7, 0.4, 2.3)                                             \
  X(cosh, sinh(x), -0.7, 0.4, 2.3)                                             \
  X(tanh, 1 / (cosh(x) * cosh(x)), -0.7, 0.4, 2.3)                             \
  X(asinh, 1 / sqrt(x * x + 1), -0.7, 0.4, 2.3)                                \
  X(acosh, 1 / sqrt(x * x - 1), 1.3, 2.3, 7.0)                                 \
  X(atanh, 1 / (1 - x * x), -0.7, 0.4, 0.9)                                    \
  X(erf, 2 / sqrt(M_PI) * exp(-x * x), -0.7, 0.4, 2.3)                         \
  X(erfc, -2 / sqrt(M_PI) * exp(-x * x), -0.7, 0.4, 2.3)                       \
  X(tgamma, tgamma(x) * digamma(x), -0.5, 0.7, 3.3)                            \
  X(lgamma, digamma(x), 0.7, 3.3, 10.5)                                        \
  X(cbrt, 1 / (3 * cbrt(x) * cbrt(x)), -0.7, 0.4, 8.0)                         \
  X(fabs, sgn(x), -0.7, 0.4, 2.3)                                              \
  X(floor, 0.0, -0.7, 0.4, 2.3)                                                \
  X(ceil, 0.0, -0.7, 0.4, 2.3)                                                 \
  X(round, 0.0, -0.7, 0.4, 2.3)                                                \
  X(trunc, 0.0, -0.7, 0.4, 2.3)

#define WRAP1(name, deriv, a, b, c)                                            \
  static double w_##name(double x) { return name(x); }                         \
  static double d_##name(double x) { return deriv; }
UNARY(WRAP1)

/* binary functions: f(x, y), df/dx, df/dy */
static double w_pow(double x, double y) { return pow(x, y); }
static double w_atan2(double y, double x) { return atan2(y, x); }
static double w_hypot(double x, double y) { return hypot(x, y); }
static double w_fmin(double x, double y) { return fmin(x, y); }
static double w_fmax(double x, double y) { return fmax(x, y); }
static double w_fmod(double x, double y) { return fmod(x, y); }
static double w_copysign(double x, double y) { return copysign(x, y); }
static double w_fma(double x, double y, double z) { return fma(x, y, z); }
static double w_powi(double x, int n) { return __builtin_powi(x, n); }
static double w_ldexp(double x, int n) { return ldexp(x, n); }
static double w_frexp(double x) {
  int e;
  double m = frexp(x, &e);
  return m * e; /* e is piecewise constant */
}
/* pow with special exponents the optimizer rewrites (sqrt, square,
 * reciprocal) and with a constant base */
static double w_pow_half(double x) { return pow(x, 0.5); }
static double w_pow_two(double x) { return pow(x, 2.0); }
static double w_pow_m1(double x) { return pow(x, -1.0); }
static double w_pow_base(double x) { return pow(3.0, x); }

/* a composite: many functions in one expression */
static double composite(double x) {
  return exp(sin(x)) * log1p(x * x) + atan2(cos(x), 2 + x) -
         hypot(tanh(x), cbrt(x + 3)) + pow(fabs(x) + 1, 1.5) * erf(x) +
         fmax(x, 0.25) * sqrt(cosh(x));
}

/* line functions for partials */
static double g_a, g_b;
#define LINE2(fn)                                                              \
  static double fn##_dx(double t) { return fn(t, g_b); }                       \
  static double fn##_dy(double t) { return fn(g_a, t); }
LINE2(w_pow)
LINE2(w_atan2)
LINE2(w_hypot)
LINE2(w_fmin)
LINE2(w_fmax)
LINE2(w_fmod)
LINE2(w_copysign)
static double g_c;
static double w_fma_dz(double t) { return w_fma(g_a, g_b, t); }
static double w_fma_dx(double t) { return w_fma(t, g_b, g_c); }
static int g_n;
static double w_powi_line(double t) { return w_powi(t, g_n); }
static double w_ldexp_line(double t) { return w_ldexp(t, g_n); }


#endif
