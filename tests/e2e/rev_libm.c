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

/* the derivative of a one-argument function, and d/dx f(x, n) */
#define CHECK_UNARY(fn, x, want)                                               \
  CHECK_TANGENT(__enzyme_autodiff((void *)fn, (x)), (want), fn, (x))
#define CHECK_INT(fn, line, x, n, want)                                        \
  CHECK_TANGENT(__enzyme_autodiff((void *)fn, (x), (n)), (want), line, (x))

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

#include "libm_checks.inc"

  /* pow of a negative base, integer exponent, y const */
  {
    /* (y dual with a zero tangent: fwd_pow_negative.c) */
    g_b = 3.0;
    CHECK_TANGENT(__enzyme_autodiff((void *)w_pow, -1.5, enzyme_const, 3.0),
                  3 * 1.5 * 1.5, w_pow_dx, -1.5);
    g_b = 2.0;
    CHECK_TANGENT(__enzyme_autodiff((void *)w_pow, -2.0, enzyme_const, 2.0),
                  -4.0, w_pow_dx, -2.0);
  }
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
  return check_finish();
}
