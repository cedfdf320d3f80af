/* Second derivatives where a partial's formula overflows although the
 * partial is finite: tanh at |x| > 355, whose partial sech^2 underflows to
 * 0 (written 1 / cosh^2 x, its derivative was inf / inf = NaN), and the
 * singular points whose partial is defined as 0 (sqrt, cbrt, hypot, atan2,
 * pow, powi and frexp at 0: the discarded formula's 0 * inf was NaN in
 * reverse over forward and reverse over reverse).
 *
 * Part A is adfuzz version 19 seed 178 reduced: forward over reverse gave
 * a NaN Hessian at -O0, from a saturated tanh in a loop whose value is
 * never used (at -O0 its store stays, and the reverse sweep multiplies its
 * zero adjoint by the NaN tangent of its partial); a live saturated tanh
 * gives the NaN at every level. The Hessian is checked against closed
 * forms and central differences of the reverse-mode gradient. Part B
 * differentiates tanh twice in the four nestings (forward or reverse over
 * forward or reverse) against -2 tanh x sech^2 x; part C the singular
 * points (the documented value 0 in every nesting, finite) and points
 * beside them (closed forms). */
#include "rev_check.h"

void __enzyme_fwddiff_void(void *, ...);

/* ---- A: the reduced fuzz program ---- */

/* c = x + 1.75 cos(y^2); f = tanh(c^2) + tanh(800 + y^2) / 4 */
static double fa(double x, double y) {
  double c = x + 1.75 * cos(y * y);
  for (int k = 0; k < 3 && x * y < 0.13; ++k) {
    double unused = tanh(2000.0 * c * c); /* sech^2 underflows */
    (void)unused;
  }
  return tanh(c * c) + 0.25 * tanh(800.0 + y * y);
}

static void grad_a(const double *v, double *g) {
  rev_two r = __enzyme_autodiff2((void *)fa, v[0], v[1]);
  g[0] = r.a;
  g[1] = r.b;
}

static double grad_a0(const double *v) {
  double g[2];
  grad_a(v, g);
  return g[0];
}

static double grad_a1(const double *v) {
  double g[2];
  grad_a(v, g);
  return g[1];
}

/* The closed form: T(c) = tanh(c^2), the saturated term contributes 0. */
static void hess_a(const double *v, double H[2][2]) {
  double x = v[0], y = v[1];
  double c = x + 1.75 * cos(y * y);
  double t = tanh(c * c), s2 = 1 - t * t;
  double d1 = 2 * c * s2;                       /* T'(c) */
  double d2 = 2 * s2 - 8 * c * c * t * s2;      /* T''(c) */
  double cy = -3.5 * y * sin(y * y);            /* dc/dy */
  double cyy = -3.5 * sin(y * y) - 7 * y * y * cos(y * y);
  H[0][0] = d2;
  H[0][1] = H[1][0] = d2 * cy;
  H[1][1] = d2 * cy * cy + d1 * cyy;
}

static void check_part_a(void) {
  const double points[][2] = {{-0.9, 0.7}, {-0.4, 0.3}, {0.2, -1.1}};
  for (unsigned p = 0; p < sizeof points / sizeof points[0]; ++p) {
    double H[2][2], exact[2][2];
    for (int i = 0; i < 2; ++i) {
      double v[2] = {points[p][0], points[p][1]}, dv[2] = {0, 0};
      double g[2] = {0, 0}, dg[2] = {0, 0};
      dv[i] = 1;
      __enzyme_fwddiff_void((void *)grad_a, enzyme_dup, v, dv, enzyme_dup, g,
                            dg);
      H[i][0] = dg[0];
      H[i][1] = dg[1];
    }
    double v[2] = {points[p][0], points[p][1]};
    hess_a(v, exact);
    for (int i = 0; i < 2; ++i) {
      double (*gk[2])(const double *) = {grad_a0, grad_a1};
      for (int k = 0; k < 2; ++k) {
        CHECK_TRUE(isfinite(H[i][k]));
        CHECK_CLOSE(H[i][k], exact[i][k], REV_TOL_EXACT);
        /* column i of the Hessian: the gradient's k-th entry moved in v[i] */
        CHECK_CLOSE(H[i][k], fd_partial(gk[k], v, i), REV_TOL_FD);
      }
    }
  }
}

/* ---- B, C: four nestings of one-argument functions ---- */

/* f'' by forward over reverse, forward over forward, reverse over forward
 * and reverse over reverse; f' by reverse and forward mode. */
#define NESTINGS(name, expr)                                                   \
  static double name(double t) { return expr; }                                \
  static double name##_r(double t) {                                           \
    return __enzyme_autodiff((void *)name, t);                                 \
  }                                                                            \
  static double name##_f(double t) {                                           \
    return __enzyme_fwddiff((void *)name, t, 1.0);                             \
  }                                                                            \
  static void name##_all(double t, double *d) {                                \
    d[0] = __enzyme_fwddiff((void *)name##_r, t, 1.0);                         \
    d[1] = __enzyme_fwddiff((void *)name##_f, t, 1.0);                         \
    d[2] = __enzyme_autodiff((void *)name##_f, t);                             \
    d[3] = __enzyme_autodiff((void *)name##_r, t);                             \
  }

NESTINGS(n_tanh, tanh(t))
NESTINGS(n_abs_sqrt, sqrt(t * t))
NESTINGS(n_cbrt, cbrt(t))
NESTINGS(n_hypot, hypot(t, 0.5 * t))
NESTINGS(n_hypot1, hypot(t, 0.5))
NESTINGS(n_atan2, atan2(t * t, t * t))
NESTINGS(n_atan2_1, atan2(t, 0.3))
NESTINGS(n_pow_root, pow(t * t, 0.5))
NESTINGS(n_pow_zero, pow(t, 0.0))
NESTINGS(n_pow, pow(t, 2.5))
NESTINGS(n_pow_y, pow(t, t))
NESTINGS(n_powi_zero, __builtin_powi(t, 0))
NESTINGS(n_powi, __builtin_powi(t, 3))
NESTINGS(n_frexp, ({ int e; frexp(t, &e); }))

typedef void (*nested_fn)(double, double *);

/* every nesting finite and within \p tol * |want| + \p abs of \p want */
static void check_nestings_abs(const char *what, nested_fn fn, double t,
                               double want, double tol, double abs) {
  double d[4];
  fn(t, d);
  for (int k = 0; k < 4; ++k)
    if (!isfinite(d[k]) || !(fabs(d[k] - want) <= tol * fabs(want) + abs))
      rev_fail(__FILE__, __LINE__, what, k, d[k], want);
}

/* the same, relative (and exact where \p want is 0) */
static void check_nestings(const char *what, nested_fn fn, double t,
                           double want, double tol) {
  check_nestings_abs(what, fn, t, want, tol, 0);
}

/* -2 tanh x sech^2 x, with sech^2 x from cosh where it does not overflow */
static double tanh_d2(double x) {
  double s2 = fabs(x) < 300 ? 1 / (cosh(x) * cosh(x)) : 0;
  return -2 * tanh(x) * s2;
}

static void check_part_b(void) {
  const double xs[] = {0.5, -3, 20, -40, 400, -400, 1000, -1e10, 1e200};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
    check_nestings("tanh''", n_tanh_all, xs[i], tanh_d2(xs[i]), 1e-12);
    /* and the first derivative, sech^2 x */
    double s2 = fabs(xs[i]) < 300 ? 1 / (cosh(xs[i]) * cosh(xs[i])) : 0;
    double r = n_tanh_r(xs[i]), f = n_tanh_f(xs[i]);
    if (!(fabs(r - s2) <= 1e-14 * s2) || !(fabs(f - s2) <= 1e-14 * s2))
      rev_fail(__FILE__, __LINE__, "tanh'", i, r != s2 ? r : f, s2);
  }
  /* against central differences of the first derivative where it varies */
  CHECK_CLOSE(n_tanh_r(0.5), 1 / (cosh(0.5) * cosh(0.5)), REV_TOL_EXACT);
  CHECK_CLOSE(tanh_d2(0.5), fd_central(n_tanh_r, 0.5), REV_TOL_FD);
  CHECK_CLOSE(tanh_d2(-3), fd_central(n_tanh_f, -3), REV_TOL_FD);
}

static void check_part_c(void) {
  /* the singular points: the partial is 0 there, so is its derivative */
  check_nestings("|t|'' at 0", n_abs_sqrt_all, 0, 0, 0);
  check_nestings("cbrt'' at 0", n_cbrt_all, 0, 0, 0);
  check_nestings("hypot(t, t/2)'' at 0", n_hypot_all, 0, 0, 0);
  check_nestings("atan2(t^2, t^2)'' at 0", n_atan2_all, 0, 0, 0);
  check_nestings("pow(t^2, 0.5)'' at 0", n_pow_root_all, 0, 0, 0);
  check_nestings("pow(t, 0)'' at 0", n_pow_zero_all, 0, 0, 0);
  check_nestings("powi(t, 0)'' at 0", n_powi_zero_all, 0, 0, 0);
  check_nestings("frexp'' at 0", n_frexp_all, 0, 0, 0);
  check_nestings("pow(t, 2.5)'' at 0", n_pow_all, 0, 0, 0);
  /* beside them: closed forms, and central differences of f' */
  const double t = 0.3;
  check_nestings_abs("|t|'' at 0.3", n_abs_sqrt_all, t, 0, 0, 1e-14);
  check_nestings("cbrt''", n_cbrt_all, t, -2.0 / 9 * pow(t, -5.0 / 3), 1e-12);
  check_nestings("hypot(t, 0.5)''", n_hypot1_all, t,
                 0.25 / pow(t * t + 0.25, 1.5), 1e-12);
  check_nestings("atan2(t, 0.3)''", n_atan2_1_all, t,
                 -0.6 * t / ((0.09 + t * t) * (0.09 + t * t)), 1e-12);
  check_nestings("pow(t, 2.5)''", n_pow_all, t, 3.75 * sqrt(t), 1e-12);
  double l = log(t) + 1;
  check_nestings("pow(t, t)''", n_pow_y_all, t, pow(t, t) * (l * l + 1 / t),
                 1e-12);
  check_nestings("powi(t, 3)''", n_powi_all, t, 6 * t, 1e-12);
  check_nestings("frexp'' at 0.3", n_frexp_all, t, 0, 0);
  CHECK_CLOSE(-2.0 / 9 * pow(t, -5.0 / 3), fd_central(n_cbrt_r, t),
              REV_TOL_FD);
  CHECK_CLOSE(pow(t, t) * (l * l + 1 / t), fd_central(n_pow_y_f, t),
              REV_TOL_FD);
  CHECK_CLOSE(0.25 / pow(t * t + 0.25, 1.5), fd_central(n_hypot1_r, t),
              REV_TOL_FD);
}

int main(void) {
  check_part_a();
  check_part_b();
  check_part_c();
  return check_finish();
}
