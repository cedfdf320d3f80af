/* Functions that return a struct mixing floating-point and integer fields
 * by value (what std::optional<double> is: {double, bool}), called by
 * differentiated code and not inlined. The reverse sweep of such a callee
 * once had no seed: the derivative through its result was dropped, a
 * silent zero, at every level. Gradients against closed forms and central
 * differences, forward mode along a random direction, and batched
 * (enzyme_width 2) reverse mode against the width-1 rows. */
#include "rev_check.h"

typedef struct {
  double v;
  char ok;
} maybe; /* {double, i8} in registers */
typedef struct {
  int n;
  double v;
} counted; /* {i32, double} */
typedef struct {
  double a;
  int n;
  double b;
} large; /* returned through memory */

__attribute__((noinline)) maybe square_if(double t, int keep) {
  maybe m = {t * t, (char)keep};
  return m;
}
__attribute__((noinline)) counted scaled(double t, int n) {
  counted c = {n, sin(t) * n};
  return c;
}
__attribute__((noinline)) large pair(double t, double u) {
  large l = {t * u, 3, exp(0.25 * u) - t};
  return l;
}

static double mixed(const double *x) {
  maybe m = square_if(x[0] + x[1], 1);
  maybe none = square_if(x[2], 0);
  counted c = scaled(x[1] * x[2], 2);
  large l = pair(x[0], x[3]);
  double s = m.ok ? m.v * x[1] : 0;
  s += none.ok ? 100 * none.v : x[2];
  s += c.n * c.v;
  return s + l.n * l.a * l.b;
}

static void mixed2(const double *x, double *y) {
  y[0] = mixed(x);
  maybe m = square_if(x[3] - x[0], 1);
  y[1] = m.v * m.ok + scaled(x[2], 3).v;
}
static double mixed2_0(const double *x) {
  double y[2];
  mixed2(x, y);
  return y[0];
}
static double mixed2_1(const double *x) {
  double y[2];
  mixed2(x, y);
  return y[1];
}

int main(void) {
  CHECK_GRAD_AND_DOT(mixed, 4, 1.0);
  {
    /* closed form at one point */
    double x[4] = {0.3, -0.7, 1.1, 0.4}, g[4] = {0};
    __enzyme_autodiff((void *)mixed, x, g);
    double u = x[0] + x[1], w = x[1] * x[2];
    double a = x[0] * x[3], b = exp(0.25 * x[3]) - x[0];
    double want[4] = {2 * u * x[1] + 3 * (x[3] * b - a),
                      2 * u * x[1] + u * u + 4 * cos(w) * x[2],
                      1 + 4 * cos(w) * x[1],
                      3 * (x[0] * b + a * 0.25 * exp(0.25 * x[3]))};
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE(g[i], want[i], REV_TOL_EXACT);
  }
  {
    /* both rows in one batched call, against the width-1 rows */
    double x[4] = {0.5, 0.2, -0.9, 1.3}, y[2];
    double r0[4] = {0}, r1[4] = {0}, s0[2] = {1, 0}, s1[2] = {0, 1};
    __enzyme_autodiff((void *)mixed2, enzyme_width, 2, enzyme_dup, x, r0, r1,
                      enzyme_dupnoneed, y, s0, s1);
    CHECK_GRAD(mixed2_0, x, 4, r0, NULL);
    CHECK_GRAD(mixed2_1, x, 4, r1, NULL);
  }
  return check_finish();
}
