/* The libm functions of one argument that the end-to-end tests check, in
 * double (libm_cases.h) and in float (libm_cases_float.h, the same rows
 * with the float function: sqrtf, ...): the closed-form derivative in x
 * (evaluated in double) and three points per function, and the digamma
 * that two of the derivatives need. */
#ifndef ADCC_E2E_LIBM_TABLE_H
#define ADCC_E2E_LIBM_TABLE_H

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

/* LIBM_UNARY(ROW, X): ROW(X, name, derivative in x, a, b, c) for each
 * function; ROW passes X the name of the function to test (name, or
 * name##f). */
#define LIBM_UNARY(ROW, X)                                                     \
  ROW(X, sqrt, 0.5 / sqrt(x), 0.3, 1.0, 6.25)                                  \
  ROW(X, exp, exp(x), -0.7, 0.4, 2.3)                                          \
  ROW(X, exp2, exp2(x) * M_LN2, -0.7, 0.4, 2.3)                                \
  ROW(X, expm1, exp(x), -0.7, 1e-3, 2.3)                                       \
  ROW(X, log, 1 / x, 0.3, 1.0, 7.5)                                            \
  ROW(X, log2, 1 / (x * M_LN2), 0.3, 1.0, 7.5)                                 \
  ROW(X, log10, 1 / (x * M_LN10), 0.3, 1.0, 7.5)                               \
  ROW(X, log1p, 1 / (1 + x), -0.7, 1e-3, 2.3)                                  \
  ROW(X, sin, cos(x), -0.7, 0.4, 2.3)                                          \
  ROW(X, cos, -sin(x), -0.7, 0.4, 2.3)                                         \
  ROW(X, tan, 1 / (cos(x) * cos(x)), -0.7, 0.4, 2.3)                           \
  ROW(X, asin, 1 / sqrt(1 - x * x), -0.7, 0.4, 0.9)                            \
  ROW(X, acos, -1 / sqrt(1 - x * x), -0.7, 0.4, 0.9)                           \
  ROW(X, atan, 1 / (1 + x * x), -0.7, 0.4, 2.3)                                \
  ROW(X, sinh, cosh(x), -0.7, 0.4, 2.3)                                        \
  ROW(X, cosh, sinh(x), -0.7, 0.4, 2.3)                                        \
  ROW(X, tanh, 1 / (cosh(x) * cosh(x)), -0.7, 0.4, 2.3)                        \
  ROW(X, asinh, 1 / sqrt(x * x + 1), -0.7, 0.4, 2.3)                           \
  ROW(X, acosh, 1 / sqrt(x * x - 1), 1.3, 2.3, 7.0)                            \
  ROW(X, atanh, 1 / (1 - x * x), -0.7, 0.4, 0.9)                               \
  ROW(X, erf, 2 / sqrt(M_PI) * exp(-x * x), -0.7, 0.4, 2.3)                    \
  ROW(X, erfc, -2 / sqrt(M_PI) * exp(-x * x), -0.7, 0.4, 2.3)                  \
  ROW(X, tgamma, tgamma(x) * digamma(x), -0.5, 0.7, 3.3)                       \
  ROW(X, lgamma, digamma(x), 0.7, 3.3, 10.5)                                   \
  ROW(X, cbrt, 1 / (3 * cbrt(x) * cbrt(x)), -0.7, 0.4, 8.0)                    \
  ROW(X, fabs, sgn(x), -0.7, 0.4, 2.3)                                         \
  ROW(X, floor, 0.0, -0.7, 0.4, 2.3)                                           \
  ROW(X, ceil, 0.0, -0.7, 0.4, 2.3)                                            \
  ROW(X, round, 0.0, -0.7, 0.4, 2.3)                                           \
  ROW(X, trunc, 0.0, -0.7, 0.4, 2.3)

#endif
