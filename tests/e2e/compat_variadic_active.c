/* Variadic functions whose variable arguments carry derivatives: each call
 * calls a specialization for its argument list (prepare/VariadicCalls.cpp):
 * doubles, ints and pointers (with their shadows) read by va_arg in a loop,
 * two call signatures of one function, a call in a loop, a Hessian column
 * by forward over reverse mode. A logging helper
 * that hands its va_list to vsnprintf, given only inactive values, and
 * printf still work. Reverse and forward mode against analytic values and
 * central differences. (A va_list passed on with active values stays an
 * error: lit errors/variadic-active.c.) */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

__attribute__((noinline)) static double sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += va_arg(ap, double);
  va_end(ap);
  return s;
}

/* n triples (int k, const double *p, double w): s = s * w + k p[0]^2. */
static double mixed(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 1;
  for (int i = 0; i < n; ++i) {
    int k = va_arg(ap, int);
    const double *p = va_arg(ap, const double *);
    double w = va_arg(ap, double);
    s = s * w + k * p[0] * p[0];
  }
  va_end(ap);
  return s;
}

static char log_line[128];
__attribute__((noinline)) static void note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(log_line, sizeof log_line, fmt, ap);
  va_end(ap);
}

static double f(const double *x) {
  double a = sum(3, x[0], 2.0, x[1] * x[2]) * x[1];
  double b = mixed(2, 3, &x[0], x[2], -1, &x[1], x[0] * x[0]);
  double c = 0;
  for (int i = 0; i < 3; ++i)
    c += sum(2, x[i], x[i] * x[i]);
  note("step %d of %d", 1, 3);
  return a + b + c;
}

/* f = (x0 + 2 + x1 x2) x1 + (x2 + 3 x0^2) x0^2 - x1^2 + sum_i x_i + x_i^2 */
static void grad(const double *x, double *g) {
  double x0 = x[0], x1 = x[1], x2 = x[2];
  g[0] = x1 + (x2 + 3 * x0 * x0) * 2 * x0 + 6 * x0 * x0 * x0 + 1 + 2 * x0;
  g[1] = x0 + 2 + 2 * x1 * x2 - 2 * x1 + 1 + 2 * x1;
  g[2] = x1 * x1 + x0 * x0 + 1 + 2 * x2;
}

/* Cubes summed through va_arg: a Hessian column by forward over reverse. */
static double cubes(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double v = va_arg(ap, double);
    s += v * v * v;
  }
  va_end(ap);
  return s;
}
static double q(const double *x) { return cubes(2, x[0], x[0] * x[1]); }
static void q_grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)q, enzyme_dup, x, dx);
}

int main(void) {
  double x[3] = {0.7, -1.3, 2.1}, dx[3] = {0}, want[3];
  grad(x, want);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  const double h = 1e-6;
  for (int i = 0; i < 3; ++i) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    xp[i] += h;
    xm[i] -= h;
    double e[3] = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, e);
    CHECK_CLOSE(dx[i], want[i], 1e-12);
    CHECK_CLOSE(t, want[i], 1e-12);
    CHECK_CLOSE(dx[i], (f(xp) - f(xm)) / (2 * h), 1e-7);
  }
  CHECK_TRUE(strcmp(log_line, "step 1 of 3") == 0);

  /* q = x0^3 + x0^3 x1^3: H e0 = (6 x0 + 6 x0 x1^3, 9 x0^2 x1^2). */
  double y[2] = {0.7, 1.3}, v[2] = {1, 0}, dy[2] = {0}, hv[2] = {0};
  __enzyme_fwddiff_v((void *)q_grad, enzyme_dup, y, v, enzyme_dup, dy, hv);
  double y13 = y[1] * y[1] * y[1];
  CHECK_CLOSE(hv[0], 6 * y[0] + 6 * y[0] * y13, 1e-12);
  CHECK_CLOSE(hv[1], 9 * y[0] * y[0] * y[1] * y[1], 1e-12);
  CHECK_CLOSE(dy[1], 3 * y[0] * y[0] * y[0] * y[1] * y[1], 1e-12);
  return check_finish();
}
