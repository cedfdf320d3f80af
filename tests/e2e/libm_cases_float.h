/* The single-precision libm cases shared by fwd_libm_float.c and
 * rev_libm_float.c: a wrapper per float function of the table of unary
 * functions (libm_table.h, with their closed-form derivatives in double
 * and test points), the two-argument wrappers, and the check of one unary
 * function. What both tests check of them is in libm_checks_float.inc. */
#ifndef ADCC_E2E_LIBM_CASES_FLOAT_H
#define ADCC_E2E_LIBM_CASES_FLOAT_H

#include <math.h>

#include "libm_table.h"

/* float function, closed-form derivative in double x, three points */
#define LIBM_FLOAT_ROW(X, name, deriv, a, b, c) X(name##f, deriv, a, b, c)
#define UNARY(X) LIBM_UNARY(LIBM_FLOAT_ROW, X)

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
static float w_scalbnf(float x, int n) { return scalbnf(x, n); }
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
static float w_scalbnf_line(float t) { return w_scalbnf(t, g_n); }
static float w_powif_line(float t) { return w_powif(t, g_n); }

#define CHECK_TANGENT_F(got, exact, g, t)                                      \
  do {                                                                         \
    double got_ = (got);                                                       \
    CHECK_CLOSE(got_, (exact), TOL_F);                                         \
    CHECK_CLOSE(got_, fd_central_f((g), (t)), TOL_FD_F);                       \
  } while (0)

#endif
