/* The double-precision libm cases shared by fwd_libm.c and rev_libm.c: a
 * wrapper per function of the table of unary functions (libm_table.h, with
 * their closed-form derivatives and test points), and the wrappers of the
 * two-argument functions. What both tests check of them is in
 * libm_checks.inc. */
#ifndef ADCC_E2E_LIBM_CASES_H
#define ADCC_E2E_LIBM_CASES_H

#include <math.h>

#include "libm_table.h"

/* name, closed-form derivative in x, three points */
#define LIBM_DOUBLE_ROW(X, name, deriv, a, b, c) X(name, deriv, a, b, c)
#define UNARY(X) LIBM_UNARY(LIBM_DOUBLE_ROW, X)

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
static double w_remainder(double x, double y) { return remainder(x, y); }
static double w_fdim(double x, double y) { return fdim(x, y); }
static double w_copysign(double x, double y) { return copysign(x, y); }
static double w_fma(double x, double y, double z) { return fma(x, y, z); }
static double w_powi(double x, int n) { return __builtin_powi(x, n); }
static double w_ldexp(double x, int n) { return ldexp(x, n); }
static double w_scalbn(double x, int n) { return scalbn(x, n); }
static double w_scalbln(double x, int n) { return scalbln(x, (long)n); }
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
LINE2(w_remainder)
LINE2(w_fdim)
LINE2(w_copysign)
static double g_c;
static double w_fma_dz(double t) { return w_fma(g_a, g_b, t); }
static double w_fma_dx(double t) { return w_fma(t, g_b, g_c); }
static int g_n;
static double w_powi_line(double t) { return w_powi(t, g_n); }
static double w_ldexp_line(double t) { return w_ldexp(t, g_n); }
static double w_scalbn_line(double t) { return w_scalbn(t, g_n); }
static double w_scalbln_line(double t) { return w_scalbln(t, g_n); }


#endif
