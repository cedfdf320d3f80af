/* Forward mode through the double-precision libm functions of DESIGN 1.3:
 * each is wrapped in a small function, differentiated at three points and
 * checked against its closed-form derivative and central differences; the
 * two-argument functions in each argument; powi, frexp and ldexp; and a
 * composite expression mixing many of them. */
#include "fwd_check.h"

#include "libm_cases.h"
/* check df/dx and df/dy of a binary wrapper at (x, y) */
#define CHECK_BINARY(fn, x, y, dfdx, dfdy)                                     \
  do {                                                                         \
    g_a = (x);                                                                 \
    g_b = (y);                                                                 \
    CHECK_TANGENT(__enzyme_fwddiff((void *)fn, g_a, 1.0, g_b, 0.0), (dfdx),   \
                  fn##_dx, g_a);                                               \
    CHECK_TANGENT(__enzyme_fwddiff((void *)fn, g_a, 0.0, g_b, 1.0), (dfdy),   \
                  fn##_dy, g_b);                                               \
  } while (0)

/* the derivative of a one-argument function, and d/dx f(x, n) */
#define CHECK_UNARY(fn, x, want)                                               \
  CHECK_TANGENT(__enzyme_fwddiff((void *)fn, (x), 1.0), (want), fn, (x))
#define CHECK_INT(fn, line, x, n, want)                                        \
  CHECK_TANGENT(__enzyme_fwddiff((void *)fn, (x), 1.0, (n)), (want), line, (x))

int main(void) {
#define CHECK1(name, deriv, a, b, c)                                           \
  {                                                                            \
    double pts[3] = {a, b, c};                                                 \
    for (int i = 0; i < 3; ++i) {                                              \
      double x = pts[i];                                                       \
      CHECK_TANGENT(__enzyme_fwddiff((void *)w_##name, x, 1.0), d_##name(x),  \
                    w_##name, x);                                              \
    }                                                                          \
  }
  UNARY(CHECK1)

#include "libm_checks.inc"

  /* pow of a negative base, integer exponent, y const */
  {
    /* (y dual with a zero tangent: fwd_pow_negative.c) */
    g_b = 3.0;
    CHECK_TANGENT(__enzyme_fwddiff((void *)w_pow, -1.5, 1.0, enzyme_const, 3.0),
                  3 * 1.5 * 1.5, w_pow_dx, -1.5);
    g_b = 2.0;
    CHECK_TANGENT(__enzyme_fwddiff((void *)w_pow, -2.0, 1.0, enzyme_const, 2.0),
                  -4.0, w_pow_dx, -2.0);
  }
  /* fma(x, y, z) */
  {
    g_a = 1.3;
    g_b = -0.4;
    g_c = 2.2;
    CHECK_TANGENT(__enzyme_fwddiff((void *)w_fma, g_a, 1.0, g_b, 0.0, g_c, 0.0),
                  g_b, w_fma_dx, g_a);
    CHECK_CLOSE(__enzyme_fwddiff((void *)w_fma, g_a, 0.0, g_b, 1.0, g_c, 0.0),
                g_a, FWD_TOL_EXACT);
    CHECK_TANGENT(__enzyme_fwddiff((void *)w_fma, g_a, 0.0, g_b, 0.0, g_c, 1.0),
                  1.0, w_fma_dz, g_c);
  }
  return check_finish();
}
