/* Reverse mode through calls: static and extern callees, always_inline and
 * noinline, the same callee called several times and in a loop, callees
 * with several active scalar arguments, callees writing through pointer
 * arguments (in-out), callees returning a pointer into their argument, a
 * callee that returns a struct by value (sret and in registers), void callees,
 * calls to const (inactive) helpers with int results, and a chain of calls
 * several deep. Closed forms, central differences and forward mode. */
#include "rev_check.h"

#include <stdlib.h>

static double sq(double x) { return x * x; }
__attribute__((noinline)) static double cube(double x) { return x * x * x; }
__attribute__((always_inline)) static inline double lin(double a, double b,
                                                        double c) {
  return a * b + c;
}
__attribute__((noinline)) double ext3(double a, double b, double c) {
  return sin(a) * b * b + c / a;
}
__attribute__((noinline)) static void scale_inout(double *p, double s, int n) {
  for (int i = 0; i < n; ++i)
    p[i] *= s * p[i];
}
__attribute__((noinline)) static const double *maxptr(const double *p, int n) {
  const double *m = p;
  for (int i = 1; i < n; ++i)
    if (p[i] > *m)
      m = p + i;
  return m;
}
/* returned through sret; sincos_r: {double, double} in registers */
typedef struct {
  double s, c, pad;
} SC;
__attribute__((noinline)) static SC sincos_s(double x) {
  SC r = {sin(x), cos(x), 0};
  return r;
}
typedef struct {
  double s, c;
} SC2;
__attribute__((noinline)) static SC2 sincos_r(double x) {
  SC2 r = {sin(x), cos(x)};
  return r;
}
static double use_sc2(double x) {
  SC2 t = sincos_r(x);
  return t.s * t.c + t.c;
}

__attribute__((noinline)) static int count_pos(const double *p, int n) {
  int c = 0;
  for (int i = 0; i < n; ++i)
    c += p[i] > 0;
  return c;
}
__attribute__((noinline)) static double d3(double x) { return exp(x) * x; }
__attribute__((noinline)) static double d2(double x) {
  return d3(x * x) + d3(x);
}
__attribute__((noinline)) static double d1(double x, double y) {
  return d2(x * y) * d2(y);
}

static double uses(double x, double y) {
  double r = sq(x) + cube(y) + lin(x, y, sq(y)) + ext3(x, y, x * y);
  for (int i = 0; i < 3; ++i)
    r += cube(r * 0.1);
  return r;
}
static double uses_arr(const double *v) { return uses(v[0], v[1]); }

#define N 4
static double inout(double *p, double s) {
  scale_inout(p, s, N);
  scale_inout(p, s, N); /* twice: p_i = s^3 p_i^4 */
  const double *m = maxptr(p, N);
  SC t = sincos_s(*m);
  return (t.s + t.c * count_pos(p, N)) * p[0];
}
static double g_s = 0.7;
static double inout_arr(const double *x) {
  double p[N];
  memcpy(p, x, sizeof p);
  return inout(p, g_s);
}
static double chain_arr(const double *v) { return d1(v[0], v[1]); }

/* A call of a function that never returns (an error report that exits)
 * on a path the inputs do not take: its derivative is the function itself
 * (once reported as "the function never returns"). */
__attribute__((noreturn, noinline)) static void fail(const char *what,
                                                     double v) {
  fprintf(stderr, "%s: %g\n", what, v);
  exit(2);
}
static double checked_root(const double *x) {
  if (x[0] < 0)
    fail("negative input", x[0]);
  return sqrt(x[0]) * x[1];
}

int main(void) {
  {
    double v[2] = {0.6, -0.9};
    rev_two t = __enzyme_autodiff2((void *)uses, v[0], v[1]);
    double g[2] = {t.a, t.b};
    CHECK_GRAD(uses_arr, v, 2, g, NULL);
    double w[2] = {0.3, 1.7};
    CHECK_CLOSE(g[0] * w[0] + g[1] * w[1],
                __enzyme_fwddiff((void *)uses, v[0], w[0], v[1], w[1]),
                REV_TOL_DOT);
  }
  {
    double a = 0.8, b = -1.3, c = 2.1;
    rev_three t = __enzyme_autodiff3((void *)ext3, a, b, c);
    CHECK_CLOSE(t.a, cos(a) * b * b - c / (a * a), REV_TOL_EXACT);
    CHECK_CLOSE(t.b, 2 * sin(a) * b, REV_TOL_EXACT);
    CHECK_CLOSE(t.c, 1 / a, REV_TOL_EXACT);
    CHECK_CLOSE(0.2 * t.a + 0.5 * t.b - 0.9 * t.c,
                __enzyme_fwddiff((void *)ext3, a, 0.2, b, 0.5, c, -0.9),
                REV_TOL_DOT);
  }
  {
    double x[N] = {0.5, -1.2, 0.9, 0.3}, p[N], dp[N] = {0};
    memcpy(p, x, sizeof p);
    double ds = __enzyme_autodiff((void *)inout, p, dp, g_s);
    CHECK_GRAD(inout_arr, x, N, dp, NULL);
    /* d/ds by central differences */
    double h = 1e-6, sv = g_s;
    g_s = sv + h;
    double up = inout_arr(x);
    g_s = sv - h;
    double down = inout_arr(x);
    g_s = sv;
    CHECK_CLOSE(ds, (up - down) / (2 * h), 1e-6);
    double v[N], z[N], dz[N];
    double s = rev_dir(dp, v, N) + 0.4 * ds;
    memcpy(z, x, sizeof z);
    memcpy(dz, v, sizeof dz);
    CHECK_CLOSE(s, __enzyme_fwddiff((void *)inout, z, dz, g_s, 0.4),
                REV_TOL_DOT);
  }
  {
    double v[2] = {0.4, 0.9};
    rev_two t = __enzyme_autodiff2((void *)d1, v[0], v[1]);
    double g[2] = {t.a, t.b};
    CHECK_GRAD(chain_arr, v, 2, g, NULL);
    CHECK_CLOSE(0.7 * g[0] + 1.1 * g[1],
                __enzyme_fwddiff((void *)d1, v[0], 0.7, v[1], 1.1),
                REV_TOL_DOT);
  }
  {
    double x = 0.5;
    CHECK_CLOSE(__enzyme_autodiff((void *)use_sc2, x), cos(2 * x) - sin(x),
                REV_TOL_EXACT);
  }
  {
    double x[2] = {2.25, -0.5}, g[2] = {0, 0};
    __enzyme_autodiff((void *)checked_root, x, g);
    double exact[2] = {0.5 / 1.5 * x[1], 1.5};
    CHECK_GRAD(checked_root, x, 2, g, exact);
  }
  return check_finish();
}
