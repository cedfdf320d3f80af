/* Reverse mode through the single-precision libm functions (sinf, powf,
 * ...): each wrapper's float adjoint against the closed-form derivative in
 * double (single-precision tolerance), central differences of the float
 * function, and the forward tangent; binary functions with both adjoints
 * in one call ({float, float} result) and each alone. */
#include "rev_check.h"

float __enzyme_fwddiff_f(void *, ...);
typedef struct {
  float a, b;
} two_f;
typedef struct {
  float a, b, c;
} three_f;
two_f __enzyme_autodiff2f(void *, ...);
three_f __enzyme_autodiff3f(void *, ...);

#define TOL_F 2e-6    /* float tangent vs double closed form */
#define TOL_FD_F 2e-3 /* float tangent vs float central differences */

#include "libm_cases_float.h"

#define CHECK_BINARY(fn, x, y, dfdx, dfdy)                                     \
  do {                                                                         \
    g_a = (x);                                                                 \
    g_b = (y);                                                                 \
    double a_ = g_a, b_ = g_b;                                                 \
    (void)a_;                                                                  \
    (void)b_;                                                                  \
    two_f t_ = __enzyme_autodiff2f((void *)fn, g_a, g_b);                      \
    CHECK_TANGENT_F(t_.a, (dfdx), fn##_dx, g_a);                               \
    CHECK_TANGENT_F(t_.b, (dfdy), fn##_dy, g_b);                               \
    CHECK_CLOSE(__enzyme_autodiff_f((void *)fn, g_a, enzyme_const, g_b), t_.a, \
                1e-7);                                                         \
    CHECK_CLOSE(__enzyme_autodiff_f((void *)fn, enzyme_const, g_a, g_b), t_.b, \
                1e-7);                                                         \
    CHECK_CLOSE(0.75f * t_.a - 0.25f * t_.b,                                   \
                __enzyme_fwddiff_f((void *)fn, g_a, 0.75f, g_b, -0.25f),       \
                1e-6);                                                         \
  } while (0)

/* the derivative of a one-argument function, and d/dx f(x, n) */
#define CHECK_UNARY(fn, x, want)                                               \
  CHECK_TANGENT_F(__enzyme_autodiff_f((void *)fn, (x)), (want), fn, (x))
#define CHECK_INT(fn, line, x, n, want)                                        \
  CHECK_TANGENT_F(__enzyme_autodiff_f((void *)fn, (x), (n)), (want), line, (x))

int main(void) {
#define CHECK1(name, deriv, a, b, c)                                           \
  {                                                                            \
    float pts[3] = {a, b, c};                                                  \
    for (int i = 0; i < 3; ++i) {                                              \
      float x = pts[i];                                                        \
      float r_ = __enzyme_autodiff_f((void *)w_##name, x);                     \
      CHECK_TANGENT_F(r_, d_##name(x), w_##name, x);                           \
      CHECK_CLOSE(r_, __enzyme_fwddiff_f((void *)w_##name, x, 1.0f), 1e-7);    \
    }                                                                          \
  }
  UNARY(CHECK1)

#include "libm_checks_float.inc"

  /* fmaf(x, y, z) */
  {
    float x = 1.3f, y = -0.4f, z = 2.2f;
    three_f t = __enzyme_autodiff3f((void *)w_fmaf, x, y, z);
    CHECK_CLOSE(t.a, y, TOL_F);
    CHECK_CLOSE(t.b, x, TOL_F);
    CHECK_CLOSE(t.c, 1.0, TOL_F);
  }
  return check_finish();
}
