/* Reverse over forward through null shadow pointers: the inner forward
 * derivative is given a struct whose shadow the caller zeroes, so what f
 * writes through the struct's pointer and reads back keeps its tangent in
 * a scratch shadow (NullShadowGuards.h); the outer reverse mode must give
 * that scratch a shadow of its own. Before 2026-12-06 it had none at -O0:
 * the tangents' adjoints were lost (2 cos^2 x instead of 2 cos 2x for
 * sin^2 x; adfuzz version 19 seed 5 with a reverse-over-forward Hessian).
 * Checked against closed forms, central differences of the first
 * derivative, forward over reverse and forward over forward; also with a
 * real shadow buffer, and with the pointer copied into another struct
 * (its shadow stored back: the stripped scratch). */
#include "rev_check.h"

struct ws {
  double *p;
  double k;
};
struct pair {
  double *q;
};

/* sin^2 x, through w->p[0] */
static double f1(double x, struct ws *w) {
  w->p[0] = sin(x);
  return w->p[0] * w->p[0];
}

/* x^2 y + sin(x y), through two elements and a copy of the pointer */
static double f2(const double *v, struct ws *w, struct pair *t) {
  t->q = w->p;
  w->p[0] = v[0] * v[0];
  t->q[1] = sin(v[0] * v[1]);
  return w->p[0] * v[1] + w->p[1] * w->k;
}

/* f1' by forward mode, with a zeroed shadow struct (null) or a real one */
static double d1_null(double x) {
  double b[1] = {0};
  struct ws w = {b, 1.0}, dw = {0};
  return __enzyme_fwddiff((void *)f1, x, 1.0, enzyme_dup, &w, &dw);
}
static double d1_real(double x) {
  double b[1] = {0}, db[1] = {0};
  struct ws w = {b, 1.0}, dw = {db, 0};
  return __enzyme_fwddiff((void *)f1, x, 1.0, enzyme_dup, &w, &dw);
}
/* f1' by reverse mode */
static double g1(double x) {
  double b[1] = {0};
  struct ws w = {b, 1.0}, dw = {0};
  return __enzyme_autodiff((void *)f1, x, enzyme_dup, &w, &dw);
}

/* the derivative of f2 at v in direction e, by forward mode */
static double d2(const double *v, const double *e) {
  double b[2] = {0, 0};
  struct ws w = {b, 1.0}, dw = {0};
  struct pair t = {0}, dt = {0};
  return __enzyme_fwddiff((void *)f2, enzyme_dup, v, e, enzyme_dup, &w, &dw,
                          enzyme_dup, &t, &dt);
}
static double d2_real(const double *v, const double *e) {
  double b[2] = {0, 0}, db[2] = {0, 0};
  struct ws w = {b, 1.0}, dw = {db, 0};
  struct pair t = {0}, dt = {0};
  return __enzyme_fwddiff((void *)f2, enzyme_dup, v, e, enzyme_dup, &w, &dw,
                          enzyme_dup, &t, &dt);
}

static double d2_line_v[2], d2_line_e[2];
static int d2_line_i;
/* d2 along coordinate i, for central differences */
static double d2_line(double s) {
  double v[2] = {d2_line_v[0], d2_line_v[1]};
  v[d2_line_i] = s;
  return d2(v, d2_line_e);
}

static void check_scalar(void) {
  const double xs[] = {0.7, -1.3, 2.2};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
    double x = xs[i], want = 2 * cos(2 * x);
    double rof = __enzyme_autodiff((void *)d1_null, x);
    double rof_real = __enzyme_autodiff((void *)d1_real, x);
    double fof = __enzyme_fwddiff((void *)d1_null, x, 1.0);
    double for_ = __enzyme_fwddiff((void *)g1, x, 1.0);
    CHECK_CLOSE(d1_null(x), sin(2 * x), REV_TOL_EXACT);
    CHECK_CLOSE(rof, want, REV_TOL_EXACT);
    CHECK_CLOSE(rof_real, want, REV_TOL_EXACT);
    CHECK_CLOSE(fof, want, REV_TOL_EXACT);
    CHECK_CLOSE(for_, want, REV_TOL_EXACT);
    CHECK_CLOSE(rof, fd_central(d1_null, x), REV_TOL_FD);
  }
}

static void check_hessian(void) {
  const double v0[2] = {0.6, -0.9};
  double x = v0[0], y = v0[1];
  /* f2 = x^2 y + sin(x y) */
  double hxy = 2 * x + cos(x * y) - x * y * sin(x * y);
  double H[2][2] = {{2 * y - y * y * sin(x * y), hxy},
                    {hxy, -x * x * sin(x * y)}};
  for (int i = 0; i < 2; ++i) {
    double v[2] = {x, y}, hv[2] = {0, 0}, hr[2] = {0, 0};
    double e[2] = {i == 0, i == 1};
    /* grad_v <grad f2(v), e> = H e: column i */
    __enzyme_autodiff_void((void *)d2, enzyme_dup, v, hv, enzyme_const, e);
    __enzyme_autodiff_void((void *)d2_real, enzyme_dup, v, hr, enzyme_const,
                           e);
    for (int k = 0; k < 2; ++k) {
      CHECK_CLOSE(hv[k], H[k][i], REV_TOL_EXACT);
      CHECK_CLOSE(hr[k], H[k][i], REV_TOL_EXACT);
      /* H[k][i]: d/dv_k of the derivative in direction e_i */
      d2_line_v[0] = x;
      d2_line_v[1] = y;
      d2_line_e[0] = e[0];
      d2_line_e[1] = e[1];
      d2_line_i = k;
      CHECK_CLOSE(hv[k], fd_central(d2_line, v0[k]), REV_TOL_FD);
    }
  }
}

int main(void) {
  check_scalar();
  check_hessian();
  return check_finish();
}
