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

  {
    float xs[3] = {0.3f, 1.7f, 4.0f}, ys[3] = {2.5f, -1.3f, 0.5f};
    for (int i = 0; i < 3; ++i)
      CHECK_BINARY(w_powf, xs[i], ys[i], b_ * pow(a_, b_ - 1),
                   pow(a_, b_) * log(a_));
  }
  {
    float ys[4] = {0.5f, 0.5f, -0.5f, -2.0f},
          xs[4] = {1.5f, -1.5f, -0.7f, 0.3f};
    for (int i = 0; i < 4; ++i)
      CHECK_BINARY(w_atan2f, ys[i], xs[i], b_ / (a_ * a_ + b_ * b_),
                   -a_ / (a_ * a_ + b_ * b_));
  }
  {
    float xs[2] = {3.0f, -0.5f}, ys[2] = {4.0f, 2.0f};
    for (int i = 0; i < 2; ++i)
      CHECK_BINARY(w_hypotf, xs[i], ys[i], a_ / hypot(a_, b_),
                   b_ / hypot(a_, b_));
  }
  CHECK_BINARY(w_fminf, 0.3f, 1.2f, 1.0, 0.0);
  CHECK_BINARY(w_fminf, 2.3f, -1.2f, 0.0, 1.0);
  CHECK_BINARY(w_fmaxf, 0.3f, 1.2f, 0.0, 1.0);
  CHECK_BINARY(w_fmaxf, 2.3f, -1.2f, 1.0, 0.0);
  CHECK_BINARY(w_fmodf, 7.3f, 2.0f, 1.0, -3.0);
  CHECK_BINARY(w_fmodf, -7.3f, 2.5f, 1.0, 2.0);
  CHECK_BINARY(w_copysignf, 1.5f, -2.0f, -1.0, 0.0);
  CHECK_BINARY(w_copysignf, -1.5f, -2.0f, 1.0, 0.0);
  {
    float x = 1.3f, y = -0.4f, z = 2.2f;
    three_f t = __enzyme_autodiff3f((void *)w_fmaf, x, y, z);
    CHECK_CLOSE(t.a, y, TOL_F);
    CHECK_CLOSE(t.b, x, TOL_F);
    CHECK_CLOSE(t.c, 1.0, TOL_F);
  }
  {
    int ns[4] = {0, 1, 5, -3};
    for (int i = 0; i < 4; ++i) {
      int n = g_n = ns[i];
      float x = 1.3f;
      CHECK_TANGENT_F(__enzyme_autodiff_f((void *)w_ldexpf, x, n),
                      ldexp(1.0, n), w_ldexpf_line, x);
      CHECK_TANGENT_F(__enzyme_autodiff_f((void *)w_powif, x, n),
                      n * pow((double)x, n - 1), w_powif_line, x);
    }
  }
  {
    float xs[3] = {0.3f, 5.5f, -100.25f};
    for (int i = 0; i < 3; ++i) {
      int e;
      frexpf(xs[i], &e);
      CHECK_TANGENT_F(__enzyme_autodiff_f((void *)w_frexpf, xs[i]),
                      ldexp(1.0, -e) * e, w_frexpf, xs[i]);
    }
  }
  {
    float xs[3] = {-0.6f, 0.1f, 1.4f};
    for (int i = 0; i < 3; ++i) {
      double x = xs[i];
      double want = exp(x) * sin(x) + exp(x) * cos(x) + x / sqrt(x * x + 1);
      CHECK_TANGENT_F(__enzyme_autodiff_f((void *)mixed_prec, xs[i]), want,
                      mixed_prec, xs[i]);
    }
  }
  return check_finish();
}
