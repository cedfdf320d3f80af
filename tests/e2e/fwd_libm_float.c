/* Forward mode through the single-precision libm functions (sinf, powf,
 * ...): each wrapper is differentiated in float and checked against the
 * closed-form derivative evaluated in double (single-precision tolerance)
 * and against central differences of the float function. */
#include "fwd_check.h"

float __enzyme_fwddiff_f(void *, ...);

#define TOL_F 2e-6   /* float tangent vs double closed form */
#define TOL_FD_F 2e-3 /* float tangent vs float central differences */

#include "libm_cases_float.h"

#define CHECK_BINARY(fn, x, y, dfdx, dfdy)                                     \
  do {                                                                         \
    g_a = (x);                                                                 \
    g_b = (y);                                                                 \
    double a_ = g_a, b_ = g_b;                                                 \
    (void)a_;                                                                  \
    (void)b_;                                                                  \
    CHECK_TANGENT_F(__enzyme_fwddiff_f((void *)fn, g_a, 1.0f, g_b, 0.0f),     \
                    (dfdx), fn##_dx, g_a);                                     \
    CHECK_TANGENT_F(__enzyme_fwddiff_f((void *)fn, g_a, 0.0f, g_b, 1.0f),     \
                    (dfdy), fn##_dy, g_b);                                     \
  } while (0)

/* the derivative of a one-argument function, and d/dx f(x, n) */
#define CHECK_UNARY(fn, x, want)                                               \
  CHECK_TANGENT_F(__enzyme_fwddiff_f((void *)fn, (x), 1.0f), (want), fn, (x))
#define CHECK_INT(fn, line, x, n, want)                                        \
  CHECK_TANGENT_F(__enzyme_fwddiff_f((void *)fn, (x), 1.0f, (n)), (want),     \
                  line, (x))

int main(void) {
#define CHECK1(name, deriv, a, b, c)                                           \
  {                                                                            \
    float pts[3] = {a, b, c};                                                  \
    for (int i = 0; i < 3; ++i) {                                              \
      float x = pts[i];                                                        \
      CHECK_TANGENT_F(__enzyme_fwddiff_f((void *)w_##name, x, 1.0f),          \
                      d_##name(x), w_##name, x);                               \
    }                                                                          \
  }
  UNARY(CHECK1)

#include "libm_checks_float.inc"

  /* fmaf(x, y, z) */
  {
    float x = 1.3f, y = -0.4f, z = 2.2f;
    CHECK_CLOSE(__enzyme_fwddiff_f((void *)w_fmaf, x, 1.0f, y, 0.0f, z, 0.0f),
                y, TOL_F);
    CHECK_CLOSE(__enzyme_fwddiff_f((void *)w_fmaf, x, 0.0f, y, 1.0f, z, 0.0f),
                x, TOL_F);
    CHECK_CLOSE(__enzyme_fwddiff_f((void *)w_fmaf, x, 0.0f, y, 0.0f, z, 1.0f),
                1.0, TOL_F);
  }
  return check_finish();
}
