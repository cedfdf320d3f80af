/* Reverse mode (__enzyme_autodiff) through the double-precision libm
 * functions of DESIGN 1.3 (the list of fwd_libm.c): each wrapper's adjoint at
 * three points against its closed form and central differences; the
 * two-argument functions with both adjoints at once (and each alone, the
 * other const); fma with three; powi, frexp and ldexp; a composite
 * expression; and the reverse adjoint against the forward tangent. */
#include "rev_check.h"
#include "libm_cases.h"
/* check df/dx and df/dy of a binary wrapper at (x, y): both adjoints in one
 * call, then each with the other argument const */
#define CHECK_BINARY(fn, x, y, dfdx, dfdy)                                     \
  do {                                                                         \
    g_a = (x);                                                                 \
    g_b = (y);                                                                 \
    rev_two t_ = __enzyme_autodiff2((void *)fn, g_a, g_b);                     \
    CHECK_TANGENT(t_.a, (dfdx), fn##_dx, g_a);                                 \
    CHECK_TANGENT(t_.b, (dfdy), fn##_dy, g_b);                                 \
    CHECK_CLOSE(__enzyme_autodiff((void *)fn, g_a, enzyme_const, g_b), t_.a,   \
                REV_TOL_EXACT);                                                \
    CHECK_CLOSE(__enzyme_autodiff((void *)fn, enzyme_const, g_a, g_b), t_.b,   \
                REV_TOL_EXACT);                                                \
    CHECK_CLOSE(0.7 * t_.a - 0.3 * t_.b,                                       \
                __enzyme_fwddiff((void *)fn, g_a, 0.7, g_b, -0.3),             \
                REV_TOL_EXACT);                                                \
  } while (0)

int main(void) {
#define CHECK1(name, deriv, a, b, c)                                           \
  {                                                                            \
    double pts[3] = {a, b, c};                                                 \
    for (int i = 0; i < 3; ++i) {                                              \
      double x = pts[i];                                                       \
      double r_ = __enzyme_autodiff((void *)w_##name, x);                      \
      CHECK_TANGENT(r_, d_##name(x), w_##name, x);                             \
      CHECK_CLOSE(r_, __enzyme_fwddiff((void *)w_##name, x, 1.0),              \
                  REV_TOL_EXACT);                                              \
    }                                                                          \
  }
  UNARY(CHECK1)

  /* pow(x, y) = x^y: y x^(y-1), x^y log x */
  {
    double xs[3] = {0.3, 1.7, 4.0}, ys[3] = {2.5, -1.3, 0.5};
    for (int i = 0; i < 3; ++i) {
      double x = xs[i], y = ys[i];
      CHECK_BINARY(w_pow, x, y, y * pow(x, y - 1), pow(x, y) * log(x));
    }
    /* negative base, integer exponent, y const (y dual with a zero
     * tangent: fwd_pow_negative.c) */
    g_b = 3.0;
    CHECK_TANGENT(__enzyme_autodiff((void *)w_pow, -1.5, enzyme_const, 3.0),
                  3 * 1.5 * 1.5, w_pow_dx, -1.5);
    g_b = 2.0;
    CHECK_TANGENT(__enzyme_autodiff((void *)w_pow, -2.0, enzyme_const, 2.0),
                  -4.0, w_pow_dx, -2.0);
  }
  {
    double xs[3] = {0.3, 1.7, 4.0};
    for (int i = 0; i < 3; ++i) {
      double x = xs[i];
      CHECK_TANGENT(__enzyme_autodiff((void *)w_pow_half, x), 0.5 / sqrt(x),
                    w_pow_half, x);
      CHECK_TANGENT(__enzyme_autodiff((void *)w_pow_two, x), 2 * x, w_pow_two,
                    x);
      CHECK_TANGENT(__enzyme_autodiff((void *)w_pow_m1, x), -1 / (x * x),
                    w_pow_m1, x);
      CHECK_TANGENT(__enzyme_autodiff((void *)w_pow_base, x),
                    pow(3.0, x) * log(3.0), w_pow_base, x);
    }
  }
  /* atan2(y, x): d/dy = x / r^2, d/dx = -y / r^2; all four quadrants */
  {
    double ys[4] = {0.5, 0.5, -0.5, -2.0}, xs[4] = {1.5, -1.5, -0.7, 0.3};
    for (int i = 0; i < 4; ++i) {
      double y = ys[i], x = xs[i], r2 = x * x + y * y;
      CHECK_BINARY(w_atan2, y, x, x / r2, -y / r2);
    }
  }
  {
    double xs[3] = {3.0, -0.5, 1e-3}, ys[3] = {4.0, 2.0, -1.0};
    for (int i = 0; i < 3; ++i) {
      double x = xs[i], y = ys[i], h = hypot(x, y);
      CHECK_BINARY(w_hypot, x, y, x / h, y / h);
    }
  }
  /* fmin / fmax select an argument */
  CHECK_BINARY(w_fmin, 0.3, 1.2, 1.0, 0.0);
  CHECK_BINARY(w_fmin, 2.3, -1.2, 0.0, 1.0);
  CHECK_BINARY(w_fmax, 0.3, 1.2, 0.0, 1.0);
  CHECK_BINARY(w_fmax, 2.3, -1.2, 1.0, 0.0);
  /* fmod(x, y) = x - trunc(x / y) y */
  CHECK_BINARY(w_fmod, 7.3, 2.0, 1.0, -3.0);
  CHECK_BINARY(w_fmod, -7.3, 2.5, 1.0, 2.0);
  CHECK_BINARY(w_fmod, 0.7, 2.5, 1.0, 0.0);
  /* copysign(x, y): +-1 in x, 0 in y */
  CHECK_BINARY(w_copysign, 1.5, 2.0, 1.0, 0.0);
  CHECK_BINARY(w_copysign, 1.5, -2.0, -1.0, 0.0);
  CHECK_BINARY(w_copysign, -1.5, 2.0, -1.0, 0.0);
  CHECK_BINARY(w_copysign, -1.5, -2.0, 1.0, 0.0);
  /* fma(x, y, z) */
  {
    g_a = 1.3;
    g_b = -0.4;
    g_c = 2.2;
    rev_three t = __enzyme_autodiff3((void *)w_fma, g_a, g_b, g_c);
    CHECK_TANGENT(t.a, g_b, w_fma_dx, g_a);
    CHECK_CLOSE(t.b, g_a, REV_TOL_EXACT);
    CHECK_TANGENT(t.c, 1.0, w_fma_dz, g_c);
    CHECK_CLOSE(0.2 * t.a + 0.5 * t.b - t.c,
                __enzyme_fwddiff((void *)w_fma, g_a, 0.2, g_b, 0.5, g_c, -1.0),
                REV_TOL_EXACT);
  }
  /* powi and ldexp: integer second argument */
  {
    int ns[4] = {0, 1, 5, -3};
    for (int i = 0; i < 4; ++i) {
      int n = g_n = ns[i];
      double x = 1.3;
      CHECK_TANGENT(__enzyme_autodiff((void *)w_powi, x, n), n * pow(x, n - 1),
                    w_powi_line, x);
      CHECK_TANGENT(__enzyme_autodiff((void *)w_ldexp, x, n), ldexp(1.0, n),
                    w_ldexp_line, x);
    }
  }
  /* frexp: m = x 2^-e */
  {
    double xs[3] = {0.3, 5.5, -100.25};
    for (int i = 0; i < 3; ++i) {
      int e;
      frexp(xs[i], &e);
      CHECK_TANGENT(__enzyme_autodiff((void *)w_frexp, xs[i]),
                    ldexp(1.0, -e) * e, w_frexp, xs[i]);
    }
  }
  /* composite */
  {
    double xs[3] = {-0.6, 0.1, 1.4};
    for (int i = 0; i < 3; ++i) {
      double x = xs[i];
      double h = hypot(tanh(x), cbrt(x + 3)), th = tanh(x), cb = cbrt(x + 3);
      double a = fabs(x) + 1;
      double want =
          exp(sin(x)) * cos(x) * log1p(x * x) +
          exp(sin(x)) * 2 * x / (1 + x * x) +
          (-(2 + x) * sin(x) - cos(x)) / ((2 + x) * (2 + x) + cos(x) * cos(x)) -
          (th * (1 - th * th) + cb * (1 / (3 * cb * cb))) / h +
          1.5 * sqrt(a) * sgn(x) * erf(x) +
          pow(a, 1.5) * 2 / sqrt(M_PI) * exp(-x * x) +
          (x > 0.25 ? sqrt(cosh(x)) : 0) +
          fmax(x, 0.25) * sinh(x) / (2 * sqrt(cosh(x)));
      CHECK_TANGENT(__enzyme_autodiff((void *)composite, x), want, composite,
                    x);
    }
  }
  return check_finish();
}
