/* Derivatives at the points where a function has no derivative, with the
 * conventions of docs/rules.md, "Non-differentiable points": fabs at +0
 * and -0 follows the sign of the zero; fmin and fmax (and llvm.minimum,
 * llvm.maximumnum, ...) select the chosen argument's tangent, so the other
 * argument's NaN or infinite tangent does not leak, and ties go to the
 * first argument; sqrt, cbrt and pow(x, y < 1) at x = 0 and hypot at the
 * origin have the derivative 0. Forward, batched forward (width 2) and
 * reverse mode, double and float, against exact values.
 *
 * Under -ffast-math (no NaNs, no infinities, no signed zeros) only the
 * cases that stay meaningful run: ties and the zero derivatives. */
#include "rev_check.h"

typedef struct {
  double d[2];
} d2;
typedef struct {
  float f[2];
} f2;
d2 __enzyme_fwddiff_w2(void *, ...);
f2 __enzyme_fwddiff_w2f(void *, ...);
void __enzyme_autodiff_void(void *, ...);
void __enzyme_fwddiff_void(void *, ...);

typedef double v2d __attribute__((ext_vector_type(2)));
typedef float v4f __attribute__((ext_vector_type(4)));

/* Inputs the optimizer cannot see. */
static volatile double zero_d = 0.0, one_d = 1.0;
static volatile float zero_f = 0.0f, one_f = 1.0f;

/* got == want exactly (infinities included; NaN never passes) */
#define CHECK_EXACT(got, want)                                                 \
  do {                                                                         \
    double ge_ = (got), we_ = (want);                                          \
    if (!(ge_ == we_)) {                                                       \
      printf("FAIL %s:%d: %s = %.17g, expected %.17g\n", __FILE__, __LINE__,   \
             #got, ge_, we_);                                                  \
      ++check_failures;                                                        \
    }                                                                          \
  } while (0)

/* ---- the functions */

static double abs_d(double x) { return fabs(x); }
#ifndef __FAST_MATH__
static float abs_f(float x) { return fabsf(x); }
#endif
static double max_d(double x, double y) { return fmax(x, y); }
static double min_d(double x, double y) { return fmin(x, y); }
static float max_f(float x, float y) { return fmaxf(x, y); }
static float min_f(float x, float y) { return fminf(x, y); }
/* llvm.maximum, llvm.minimum, llvm.maximumnum */
static double maximum_d(double x, double y) {
  return __builtin_elementwise_maximum(x, y);
}
static double minimum_d(double x, double y) {
  return __builtin_elementwise_minimum(x, y);
}
static double maximumnum_d(double x, double y) {
  return __builtin_fmaximum_num(x, y);
}
static double sqrt_d(double x) { return sqrt(x); }
static float sqrt_f(float x) { return sqrtf(x); }
/* the adjoint of sqrt is c; at x = 0, c = 0 gives 0 * (1 / 0) */
static double scaled_sqrt(double x, double c) { return c * sqrt(x); }
/* |(x, y)| at the origin: a zero tangent, a nonzero adjoint */
static double norm_d(double x, double y) { return sqrt(x * x + y * y); }
static float norm_f(float x, float y) { return sqrtf(x * x + y * y); }
static double cbrt_d(double x) { return cbrt(x); }
static double pow_d(double x, double y) { return pow(x, y); }
static double hypot_d(double x, double y) { return hypot(x, y); }

#ifndef __FAST_MATH__
/* through memory, for seeds of the result adjoint */
static void max_p(const double *x, const double *y, double *out) {
  *out = fmax(*x, *y);
}
static void min_p(const double *x, const double *y, double *out) {
  *out = fmin(*x, *y);
}
static void max_pf(const float *x, const float *y, float *out) {
  *out = fmaxf(*x, *y);
}
/* llvm.fabs.v2f64, llvm.fabs.v4f32, llvm.maxnum.v2f64 */
static void abs_v2d(const double *x, double *out) {
  v2d v = {x[0], x[1]};
  v2d r = __builtin_elementwise_abs(v);
  out[0] = r.x;
  out[1] = r.y;
}
static void abs_v4f(const float *x, float *out) {
  v4f v = {x[0], x[1], x[2], x[3]};
  v4f r = __builtin_elementwise_abs(v);
  for (int i = 0; i < 4; ++i)
    out[i] = r[i];
}
static void max_v2d(const double *x, const double *y, double *out) {
  v2d a = {x[0], x[1]}, b = {y[0], y[1]};
  v2d r = __builtin_elementwise_max(a, b);
  out[0] = r.x;
  out[1] = r.y;
}
#endif

/* ---- fabs: the sign of the zero */

static void check_fabs(void) {
#ifndef __FAST_MATH__
  double pz = zero_d, nz = -zero_d;
  float pzf = zero_f, nzf = -zero_f;
  CHECK_EXACT(__enzyme_fwddiff((void *)abs_d, pz, 1.0), 1);
  CHECK_EXACT(__enzyme_fwddiff((void *)abs_d, nz, 1.0), -1);
  CHECK_EXACT(__enzyme_autodiff((void *)abs_d, pz), 1);
  CHECK_EXACT(__enzyme_autodiff((void *)abs_d, nz), -1);
  CHECK_EXACT(__enzyme_fwddiff_f((void *)abs_f, pzf, 1.0f), 1);
  CHECK_EXACT(__enzyme_fwddiff_f((void *)abs_f, nzf, 1.0f), -1);
  CHECK_EXACT(__enzyme_autodiff_f((void *)abs_f, pzf), 1);
  CHECK_EXACT(__enzyme_autodiff_f((void *)abs_f, nzf), -1);
  d2 w = __enzyme_fwddiff_w2((void *)abs_d, enzyme_width, 2, nz, 1.0, 2.0);
  CHECK_EXACT(w.d[0], -1);
  CHECK_EXACT(w.d[1], -2);
  f2 wf = __enzyme_fwddiff_w2f((void *)abs_f, enzyme_width, 2, pzf, 1.0f, 2.0f);
  CHECK_EXACT(wf.f[0], 1);
  CHECK_EXACT(wf.f[1], 2);

  /* vectors: lanes +0, -0 (and -3, 2 for float) */
  double x[2] = {pz, nz}, dx[2] = {1, 1}, out[2], dout[2];
  __enzyme_fwddiff_void((void *)abs_v2d, x, dx, out, dout);
  CHECK_EXACT(dout[0], 1);
  CHECK_EXACT(dout[1], -1);
  double gx[2] = {0, 0}, seed[2] = {1, 1};
  __enzyme_autodiff_void((void *)abs_v2d, x, gx, out, seed);
  CHECK_EXACT(gx[0], 1);
  CHECK_EXACT(gx[1], -1);
  float xf[4] = {pzf, nzf, -3, 2}, dxf[4] = {1, 1, 1, 1}, outf[4], doutf[4];
  __enzyme_fwddiff_void((void *)abs_v4f, xf, dxf, outf, doutf);
  CHECK_EXACT(doutf[0], 1);
  CHECK_EXACT(doutf[1], -1);
  CHECK_EXACT(doutf[2], -1);
  CHECK_EXACT(doutf[3], 1);
  float gxf[4] = {0}, seedf[4] = {1, 1, 1, 1};
  __enzyme_autodiff_void((void *)abs_v4f, xf, gxf, outf, seedf);
  CHECK_EXACT(gxf[0], 1);
  CHECK_EXACT(gxf[1], -1);
  CHECK_EXACT(gxf[2], -1);
  CHECK_EXACT(gxf[3], 1);
#endif
  double two = 2 * one_d;
  CHECK_EXACT(__enzyme_fwddiff((void *)abs_d, -two, 1.0), -1);
  CHECK_EXACT(__enzyme_autodiff((void *)abs_d, two), 1);
}

/* ---- fmin, fmax: a select, ties to the first argument */

/* f(x, y), which picks x or y: tangents 3 of x and 5 of y (and 1, 2 in
 * a second lane); the gradient */
#define CHECK_SELECT(f, x, y, picks_x)                                         \
  do {                                                                         \
    double t_ = 3 * one_d, want_ = (picks_x) ? t_ : 5;                         \
    CHECK_EXACT(__enzyme_fwddiff((void *)f, x, t_, y, 5.0), want_);            \
    rev_two g_ = __enzyme_autodiff2((void *)f, x, y);                          \
    CHECK_EXACT(g_.a, (picks_x) ? 1 : 0);                                      \
    CHECK_EXACT(g_.b, (picks_x) ? 0 : 1);                                      \
    d2 w_ = __enzyme_fwddiff_w2((void *)f, enzyme_width, 2, x, t_, 1.0, y,     \
                                5.0, 2.0);                                     \
    CHECK_EXACT(w_.d[0], want_);                                               \
    CHECK_EXACT(w_.d[1], (picks_x) ? 1 : 2);                                   \
    CHECK_OTHER_NONFINITE(f, x, y, picks_x);                                   \
  } while (0)

#ifndef __FAST_MATH__
/* the tangent of the argument not picked is NaN, then infinite */
#define CHECK_OTHER_NONFINITE(f, x, y, picks_x)                                \
  do {                                                                         \
    double t_ = 3 * one_d, want_ = (picks_x) ? t_ : 5;                         \
    double nan_x_ = (picks_x) ? t_ : NAN, nan_y_ = (picks_x) ? NAN : 5;        \
    double inf_x_ = (picks_x) ? t_ : INFINITY;                                 \
    double inf_y_ = (picks_x) ? -INFINITY : 5;                                 \
    CHECK_EXACT(__enzyme_fwddiff((void *)f, x, nan_x_, y, nan_y_), want_);     \
    CHECK_EXACT(__enzyme_fwddiff((void *)f, x, inf_x_, y, inf_y_), want_);     \
    d2 w_ = __enzyme_fwddiff_w2((void *)f, enzyme_width, 2, x, nan_x_, inf_x_, \
                                y, nan_y_, inf_y_);                            \
    CHECK_EXACT(w_.d[0], want_);                                               \
    CHECK_EXACT(w_.d[1], want_);                                               \
  } while (0)
#else
#define CHECK_OTHER_NONFINITE(f, x, y, picks_x)                                \
  do {                                                                         \
  } while (0)
#endif

static void check_fmin_fmax(void) {
  double one = one_d, two = 2 * one_d;
  CHECK_SELECT(max_d, two, one, 1);
  CHECK_SELECT(max_d, one, two, 0);
  CHECK_SELECT(max_d, one, one, 1); /* tie: the first argument */
  CHECK_SELECT(maximum_d, two, one, 1);
  CHECK_SELECT(maximum_d, one, two, 0);
  CHECK_SELECT(maximum_d, one, one, 1);
  CHECK_SELECT(maximumnum_d, two, one, 1);
  CHECK_SELECT(maximumnum_d, one, two, 0);
  CHECK_SELECT(maximumnum_d, one, one, 1);
  CHECK_SELECT(min_d, one, two, 1);
  CHECK_SELECT(min_d, two, one, 0);
  CHECK_SELECT(min_d, two, two, 1);
  CHECK_SELECT(minimum_d, one, two, 1);
  CHECK_SELECT(minimum_d, two, one, 0);
  CHECK_SELECT(minimum_d, two, two, 1);
#ifndef __FAST_MATH__
  /* fmax(NaN, y) = y, fmin(x, NaN) = x */
  CHECK_EXACT(__enzyme_fwddiff((void *)max_d, (double)NAN, 1.0, one, 7.0), 7);
  CHECK_EXACT(__enzyme_fwddiff((void *)min_d, one, 7.0, (double)NAN, 1.0), 7);

  /* reverse: an infinite adjoint of the result reaches the chosen argument
   * alone (not 0 * inf = NaN for the other) */
  double x = two, y = one, gx = 0, gy = 0, out, seed = INFINITY;
  __enzyme_autodiff_void((void *)max_p, &x, &gx, &y, &gy, &out, &seed);
  CHECK_EXACT(gx, INFINITY);
  CHECK_EXACT(gy, 0);
  gx = gy = 0;
  seed = NAN;
  __enzyme_autodiff_void((void *)min_p, &x, &gx, &y, &gy, &out, &seed);
  CHECK_TRUE(isnan(gy));
  CHECK_EXACT(gx, 0);
  float xf = 1, yf = 1, gxf = 0, gyf = 0, outf, seedf = -INFINITY;
  __enzyme_autodiff_void((void *)max_pf, &xf, &gxf, &yf, &gyf, &outf, &seedf);
  CHECK_EXACT(gxf, -INFINITY); /* tie: the first argument */
  CHECK_EXACT(gyf, 0);

  /* vector maxnum: lane 0 picks x, lane 1 y */
  double xv[2] = {two, one}, yv[2] = {one, two}, dxv[2] = {1, NAN},
         dyv[2] = {INFINITY, 4}, outv[2], doutv[2];
  __enzyme_fwddiff_void((void *)max_v2d, xv, dxv, yv, dyv, outv, doutv);
  CHECK_EXACT(doutv[0], 1);
  CHECK_EXACT(doutv[1], 4);
  double gxv[2] = {0, 0}, gyv[2] = {0, 0}, seedv[2] = {INFINITY, NAN};
  __enzyme_autodiff_void((void *)max_v2d, xv, gxv, yv, gyv, outv, seedv);
  CHECK_EXACT(gxv[0], INFINITY);
  CHECK_EXACT(gyv[0], 0);
  CHECK_EXACT(gxv[1], 0);
  CHECK_TRUE(isnan(gyv[1]));
#endif
  /* float */
  float onef = one_f, twof = 2 * one_f;
  CHECK_EXACT(__enzyme_fwddiff_f((void *)max_f, twof, 3.0f, onef, 5.0f), 3);
  CHECK_EXACT(__enzyme_fwddiff_f((void *)max_f, onef, 3.0f, onef, 5.0f), 3);
  CHECK_EXACT(__enzyme_fwddiff_f((void *)min_f, twof, 3.0f, onef, 5.0f), 5);
  CHECK_EXACT(__enzyme_fwddiff_f((void *)min_f, onef, 3.0f, onef, 5.0f), 3);
  CHECK_EXACT(__enzyme_autodiff_f((void *)max_f, onef, enzyme_const, onef), 1);
  CHECK_EXACT(__enzyme_autodiff_f((void *)min_f, enzyme_const, onef, onef), 0);
#ifndef __FAST_MATH__
  CHECK_EXACT(__enzyme_fwddiff_f((void *)max_f, twof, 3.0f, onef, NAN), 3);
  CHECK_EXACT(__enzyme_fwddiff_f((void *)min_f, twof, INFINITY, onef, 5.0f), 5);
#endif
}

/* ---- sqrt, cbrt, pow(x, y < 1), hypot at 0: the derivative 0 */

static void check_roots(void) {
  double z = zero_d, one = one_d;
  float zf = zero_f;
  CHECK_EXACT(__enzyme_fwddiff((void *)sqrt_d, z, 0.0), 0);
  CHECK_EXACT(__enzyme_fwddiff((void *)sqrt_d, z, 1.0), 0);
  CHECK_CLOSE(__enzyme_fwddiff((void *)sqrt_d, 4 * one, 1.0), 0.25, 1e-15);
  CHECK_EXACT(__enzyme_autodiff((void *)sqrt_d, z), 0);
  CHECK_EXACT(__enzyme_fwddiff_f((void *)sqrt_f, zf, 0.0f), 0);
  CHECK_EXACT(__enzyme_fwddiff_f((void *)sqrt_f, zf, 1.0f), 0);
  CHECK_EXACT(__enzyme_autodiff_f((void *)sqrt_f, zf), 0);
  d2 w = __enzyme_fwddiff_w2((void *)sqrt_d, enzyme_width, 2, z, 0.0, 1.0);
  CHECK_EXACT(w.d[0], 0);
  CHECK_EXACT(w.d[1], 0);

  /* c sqrt(x) at x = 0, c = 0 and c = 3 */
  CHECK_EXACT(__enzyme_fwddiff((void *)scaled_sqrt, z, 1.0, z, 0.0), 0);
  rev_two g = __enzyme_autodiff2((void *)scaled_sqrt, z, z);
  CHECK_EXACT(g.a, 0);
  CHECK_EXACT(g.b, 0);
  g = __enzyme_autodiff2((void *)scaled_sqrt, z, 3 * one);
  CHECK_EXACT(g.a, 0);
  CHECK_EXACT(g.b, 0);

  /* |(x, y)| at the origin */
  CHECK_EXACT(__enzyme_fwddiff((void *)norm_d, z, 1.0, z, 2.0), 0);
  g = __enzyme_autodiff2((void *)norm_d, z, z);
  CHECK_EXACT(g.a, 0);
  CHECK_EXACT(g.b, 0);
  g = __enzyme_autodiff2((void *)norm_d, 3 * one, 4 * one);
  CHECK_CLOSE(g.a, 0.6, 1e-15);
  CHECK_CLOSE(g.b, 0.8, 1e-15);
  CHECK_EXACT(__enzyme_fwddiff_f((void *)norm_f, zf, 1.0f, zf, 2.0f), 0);
  CHECK_EXACT(__enzyme_autodiff_f((void *)norm_f, zf, enzyme_const, zf), 0);

  /* cbrt, pow(x, 0.5), hypot */
  CHECK_EXACT(__enzyme_fwddiff((void *)cbrt_d, z, 0.0), 0);
  CHECK_EXACT(__enzyme_fwddiff((void *)cbrt_d, z, 1.0), 0);
  CHECK_EXACT(__enzyme_autodiff((void *)cbrt_d, z), 0);
  CHECK_CLOSE(__enzyme_fwddiff((void *)cbrt_d, -8 * one, 1.0), 1.0 / 12, 1e-15);
  CHECK_EXACT(__enzyme_fwddiff((void *)pow_d, z, 0.0, 0.5 * one, 0.0), 0);
  CHECK_EXACT(__enzyme_fwddiff((void *)pow_d, z, 1.0, 0.5 * one, 1.0), 0);
  g = __enzyme_autodiff2((void *)pow_d, z, 0.5 * one);
  CHECK_EXACT(g.a, 0);
  CHECK_EXACT(g.b, 0);
  g = __enzyme_autodiff2((void *)pow_d, z, one);
  CHECK_EXACT(g.a, 1);
  g = __enzyme_autodiff2((void *)pow_d, 4 * one, 0.5 * one);
  CHECK_CLOSE(g.a, 0.25, 1e-15);
  CHECK_EXACT(__enzyme_fwddiff((void *)hypot_d, z, 1.0, z, 2.0), 0);
  g = __enzyme_autodiff2((void *)hypot_d, z, z);
  CHECK_EXACT(g.a, 0);
  CHECK_EXACT(g.b, 0);
}

int main(void) {
  check_fabs();
  check_fmin_fmax();
  check_roots();
  return check_finish();
}
