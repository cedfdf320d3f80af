/* The single-precision libm cases shared by fwd_libm_float.c and
 * rev_libm_float.c: a reference digamma (in double), a wrapper per float
 * function, the table of unary functions with their closed-form
 * derivatives and test points, and the check of one unary function. */
#ifndef ADCC_E2E_LIBM_CASES_FLOAT_H
#define ADCC_E2E_LIBM_CASES_FLOAT_H

#include <math.h>

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

/* float function, closed-form derivative in double x, three points */
#define UNARY(X)                                                               \
  X(sqrtf, 0.5 / sqrt(x), 0.3, 1.0, 6.25)                                      \
  X(expf, exp(x), -0.7, 0.4, 2.3)                                              \
  X(exp2f, exp2(x) * M_LN2, -0.7, 0.4, 2.3)                                    \
  X(expm1f, exp(x), -0.7, 1e-3, 2.3)                                           \
  X(logf, 1 / x, 0.3, 1.0, 7.5)                                                \
  X(log2f, 1 / (x * M_LN2), 0.3, 1.0, 7.5)                                     \
  X(log10f, 1 / (x * M_LN10), 0.3, 1.0, 7.5)                                   \
  X(log1pf, 1 / (1 + x), -0.7, 1e-3, 2.3)                                      \
  X(sinf, cos(x), -0.7, 0.4, 2.3)                                              \
  X(cosf, -sin(x), -0.7, 0.4, 2.3)                                             \
  X(tanf, 1 / (cos(x) * cos(x)), -0.7, 0.4, 2.3)                               \
  X(asinf, 1 / sqrt(1 - x * x), -0.7, 0.4, 0.9)                                \
  X(acosf, -1 / sqrt(1 - x * x), -0.7, 0.4, 0.9)                               \
  X(atanf, 1 / (1 + x * x), -0.7, 0.4, 2.3)                                    \
  X(sinhf, cosh(x), -0.7, 0.4, 2.3)                                            \
  X(coshf, sinh(x), -0.7, 0.4, 2.3)                                            \
  X(tanhf, 1 / (cosh(x) * cosh(x)), -0.7, 0.4, 2.3)                            \
  X(asinhf, 1 / sqrt(x * x + 1), -0.7, 0.4, 2.3)                               \
  X(acoshf, 1 / sqrt(x * x - 1), 1.3, 2.3, 7.0)                                \
  X(atanhf, 1 / (1 - x * x), -0.7, 0.4, 0.9)                                   \
  X(erff, 2 / sqrt(M_PI) * exp(-x * x), -0.7, 0.4, 2.3)                        \
  X(erfcf, -2 / sqrt(M_PI) * exp(-x * x), -0.7, 0.4, 2.3)                      \
  X(tgammaf, tgamma(x) * digamma(x), -0.5, 0.7, 3.3)                           \
  X(lgammaf, digamma(x), 0.7, 3.3, 10.5)                                       \
  X(cbrtf, 1 / (3 * cbrt(x) * cbrt(x)), -0.7, 0.4, 8.0)                        \
  X(fabsf, sgn(x), -0.7, 0.4, 2.3)                                             \
  X(floorf, 0.0, -0.7, 0.4, 2.3)                                               \
  X(ceilf, 0.0, -0.7, 0.4, 2.3)                                                \
  X(roundf, 0.0, -0.7, 0.4, 2.3)                                               \
  X(truncf, 0.0, -0.7, 0.4, 2.3)

#define WRAP1(name, deriv, a, b, c)                                            \
  static float w_##name(float x) { return name(x); }                           \
  static double d_##name(double x) { return deriv; }
UNARY(WRAP1)

static float w_powf(float x, float y) { return powf(x, y); }
static float w_atan2f(float y, float x) { return atan2f(y, x); }
static float w_hypotf(float x, float y) { return hypotf(x, y); }
static float w_fminf(float x, float y) { return fminf(x, y); }
static float w_fmaxf(float x, float y) { return fmaxf(x, y); }
static float w_fmodf(float x, float y) { return fmodf(x, y); }
static float w_copysignf(float x, float y) { return copysignf(x, y); }
static float w_fmaf(float x, float y, float z) { return fmaf(x, y, z); }
static float w_ldexpf(float x, int n) { return ldexpf(x, n); }
static float w_powif(float x, int n) { return __builtin_powif(x, n); }
static float w_frexpf(float x) {
  int e;
  return frexpf(x, &e) * (float)e;
}
/* float code that mixes in double: fpext / fptrunc around libm calls */
static float mixed_prec(float x) {
  double d = exp((double)x) * sinf(x);
  return (float)d + sqrtf(x * x + 1.0f);
}

static float g_a, g_b;
#define LINE2(fn)                                                              \
  static float fn##_dx(float t) { return fn(t, g_b); }                         \
  static float fn##_dy(float t) { return fn(g_a, t); }
LINE2(w_powf)
LINE2(w_atan2f)
LINE2(w_hypotf)
LINE2(w_fminf)
LINE2(w_fmaxf)
LINE2(w_fmodf)
LINE2(w_copysignf)
static int g_n;
static float w_ldexpf_line(float t) { return w_ldexpf(t, g_n); }
static float w_powif_line(float t) { return w_powif(t, g_n); }

#define CHECK_TANGENT_F(got, exact, g, t)                                      \
  do {                                                                         \
    double got_ = (got);                                                       \
    CHECK_CLOSE(got_, (exact), TOL_F);                                         \
    CHECK_CLOSE(got_, fd_central_f((g), (t)), TOL_FD_F);                       \
  } while (0)

#endif
