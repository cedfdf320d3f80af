/* Reverse mode where recorded values matter: memory a noinline callee read
 * is overwritten by the caller before the reverse sweep (and again inside
 * a loop), irreducible control flow (goto into a while loop), gathers at
 * indices computed from active values, parameters reassigned, a loop whose
 * induction variable is a double compared with the input, an argmax, and
 * a scatter-add with repeated indices.  Central differences, closed forms
 * where simple, and forward mode. */
#include "rev_check.h"
__attribute__((noinline)) static double g(const double *p) {
  return p[0] * p[0] * p[1];
}
static double overwrite_between(double *x) {
  double r = g(x);
  x[0] = 5 * x[1];
  r += g(x);
  x[1] = r;
  return r + g(x);
}
static double overwrite_arr(const double *x) {
  double y[2] = {x[0], x[1]};
  return overwrite_between(y);
}
static double loop_callee(double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i) {
    r += g(x);
    x[0] = sin(x[0]) + x[1];
    x[1] = x[1] * 0.5 + r * 0.01;
  }
  return r;
}
static double loop_callee_arr(const double *x) {
  double y[2] = {x[0], x[1]};
  return loop_callee(y, 7);
}
static double irreducible(double x, int k) {
  double r = x;
  int i = 0;
  if (k)
    goto inside;
  while (i < 5) {
    r = r * 1.1;
  inside:
    r = sin(r) + x;
    ++i;
  }
  return r;
}
static double irr_arr(const double *x) { return irreducible(x[0], 1); }
static double irr_arr0(const double *x) { return irreducible(x[0], 0); }
static double gather(const double *x, const double *tab) {
  int i = (int)(x[0] * 3);
  if (i < 0)
    i = 0;
  if (i > 3)
    i = 3;
  return tab[i] * x[0] + tab[(i + 1) % 4] * x[1];
}
static double paramre(double x, double y) {
  x = x * y;
  y = x + y;
  x = sin(x) * y;
  return x * y;
}
static double paramre_arr(const double *v) { return paramre(v[0], v[1]); }
static double floatind(double x) {
  double s = 0;
  for (double t = 0; t < x; t += 0.25)
    s += t * x;
  return s;
}
static double argmax(const double *x, int n) {
  int b = 0;
  for (int i = 1; i < n; ++i)
    if (x[i] > x[b])
      b = i;
  return x[b] * x[b] + x[(b + 1) % n];
}
static double scatter(const double *x, const int *idx, int n) {
  double y[3] = {0};
  for (int i = 0; i < n; ++i)
    y[idx[i]] += x[i] * x[i];
  return y[0] * y[1] + y[2];
}
static const int g_idx[5] = {0, 1, 0, 2, 1};
static double scatter_arr(const double *x) { return scatter(x, g_idx, 5); }
int main(void) {
  {
    double x[2] = {0.7, 1.3}, y[2] = {0.7, 1.3}, dy[2] = {0};
    __enzyme_autodiff((void *)overwrite_between, y, dy);
    CHECK_GRAD(overwrite_arr, x, 2, dy, NULL);
    double v[2], z[2] = {0.7, 1.3}, dz[2];
    rev_dir(dy, v, 2);
    memcpy(dz, v, sizeof dz);
    CHECK_DOT(dy, v, 2, __enzyme_fwddiff((void *)overwrite_between, z, dz));
  }
  {
    double x[2] = {0.7, 1.3}, y[2] = {0.7, 1.3}, dy[2] = {0};
    __enzyme_autodiff((void *)loop_callee, y, dy, 7);
    CHECK_GRAD(loop_callee_arr, x, 2, dy, NULL);
    double v[2], z[2] = {0.7, 1.3}, dz[2];
    rev_dir(dy, v, 2);
    memcpy(dz, v, sizeof dz);
    CHECK_DOT(dy, v, 2, __enzyme_fwddiff((void *)loop_callee, z, dz, 7));
  }
  {
    double x[1] = {0.4};
    double g1[1] = {__enzyme_autodiff((void *)irreducible, x[0], 1)};
    CHECK_GRAD(irr_arr, x, 1, g1, NULL);
    CHECK_CLOSE(g1[0], __enzyme_fwddiff((void *)irreducible, x[0], 1.0, 1),
                REV_TOL_DOT);
    double g0[1] = {__enzyme_autodiff((void *)irreducible, x[0], 0)};
    CHECK_GRAD(irr_arr0, x, 1, g0, NULL);
    CHECK_CLOSE(g0[0], __enzyme_fwddiff((void *)irreducible, x[0], 1.0, 0),
                REV_TOL_DOT);
  }
  {
    double tab[4] = {1, 2, 3, 4}, dtab[4] = {0};
    double x[2] = {0.5, 2.0}, dx[2] = {0};
    __enzyme_autodiff((void *)gather, x, dx, tab, dtab);
    CHECK_CLOSE(dx[0], 2, 0);
    CHECK_CLOSE(dx[1], 3, 0);
    CHECK_CLOSE(dtab[1], 0.5, 0);
    CHECK_CLOSE(dtab[2], 2.0, 0);
    CHECK_CLOSE(dtab[0], 0, 0);
    CHECK_CLOSE(dtab[3], 0, 0);
    double vx[2], vt[4];
    double s = rev_dir(dx, vx, 2) + rev_dir(dtab, vt, 4);
    CHECK_CLOSE(s, __enzyme_fwddiff((void *)gather, x, vx, tab, vt),
                REV_TOL_DOT);
  }
  {
    double v[2] = {0.8, -1.1};
    rev_two t = __enzyme_autodiff2((void *)paramre, v[0], v[1]);
    double g2[2] = {t.a, t.b};
    CHECK_GRAD(paramre_arr, v, 2, g2, NULL);
    CHECK_CLOSE(-0.4 * g2[0] + 0.9 * g2[1],
                __enzyme_fwddiff((void *)paramre, v[0], -0.4, v[1], 0.9),
                REV_TOL_DOT);
  }
  {
    /* t = 0, .25, ..., < x: d/dx = sum t (count piecewise constant) */
    double x = 1.6, e = 0;
    for (double t = 0; t < x; t += 0.25)
      e += t;
    CHECK_CLOSE(__enzyme_autodiff((void *)floatind, x), e, 1e-14);
  }
  {
    double x[4] = {0.5, 2.5, -1, 2}, dx[4] = {0};
    __enzyme_autodiff((void *)argmax, x, dx, 4);
    CHECK_CLOSE(dx[1], 5, 0);
    CHECK_CLOSE(dx[2], 1, 0);
    CHECK_CLOSE(dx[0] + dx[3], 0, 0);
    double v[4];
    rev_dir(dx, v, 4);
    CHECK_DOT(dx, v, 4, __enzyme_fwddiff((void *)argmax, x, v, 4));
  }
  {
    double x[5] = {0.5, 1.5, -1, 2, 0.3}, dx[5] = {0};
    __enzyme_autodiff((void *)scatter, x, dx, enzyme_const, g_idx, 5);
    CHECK_GRAD(scatter_arr, x, 5, dx, NULL);
    double v[5];
    rev_dir(dx, v, 5);
    CHECK_DOT(dx, v, 5,
              __enzyme_fwddiff((void *)scatter, x, v, enzyme_const, g_idx, 5));
  }
  return check_finish();
}
