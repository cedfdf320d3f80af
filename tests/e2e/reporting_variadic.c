/* A program's own variadic function that only reports, called with values
 * that carry derivatives: LIBSVM's `info(const char *fmt, ...)` formats with
 * vsnprintf into a local buffer and calls the program's print function
 * through a pointer; its solver calls it with the objective and the
 * offset, and training was refused in both modes ("calls to the variadic
 * function 'info'"). Such a call is now kept as is, as a call to printf is
 * (rules/ReportingFunctions.h): the message is printed once per
 * derivative call, with the primal values, and the derivatives are those
 * of the code around it. Also a `v...` helper that takes the va_list, and
 * a report of an element of an array with derivatives. Reverse and forward
 * mode against analytic values. (A variadic function that reads its
 * arguments with va_arg is specialized instead: e2e compat_variadic_active.c;
 * one that hands active values to a function that computes with them stays
 * an error: lit errors/variadic-active.c.) */
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int printed = 0;
static char last[256];

static void keep(const char *s) {
  ++printed;
  strncpy(last, s, sizeof last - 1);
}

static void (*print_string)(const char *) = keep;

static void info(const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  (*print_string)(buf);
}

static void vlog(const char *fmt, va_list ap) {
  char buf[128];
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  if (n > 0)
    print_string(buf);
}

static int logf_(int level, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vlog(fmt, ap);
  va_end(ap);
  return level;
}

/* A few steps of gradient descent on 0.5 sum_i (x_i - c_i)^2 p_i, reported
 * as a solver would; returns the objective after them. */
static double solve(double *x, const double *c, const double *p, int n) {
  double obj = 0;
  for (int it = 0; it < 3; ++it) {
    obj = 0;
    for (int i = 0; i < n; ++i) {
      double r = x[i] - c[i];
      obj += 0.5 * r * r * p[i];
      x[i] -= 0.25 * r * p[i];
    }
    info("iter %d: obj = %f, x[0] = %f\n", it, obj, x[0]);
  }
  logf_(1, "done: obj = %.3f\n", obj);
  return obj;
}

int main(void) {
  enum { N = 3 };
  const double c[N] = {1.0, -2.0, 0.5};
  const double p[N] = {1.0, 0.5, 2.0};
  const double x0[N] = {0.3, 0.7, -1.1};
  /* Each step multiplies x_i - c_i by q_i = 1 - 0.25 p_i; the objective
   * returned is that of the third step's start: 0.5 sum (q_i^2 r_i)^2 p_i,
   * r_i = x0_i - c_i; d/dx0_i = q_i^4 r_i p_i. */
  double want[N], value = 0;
  for (int i = 0; i < N; ++i) {
    double q = 1 - 0.25 * p[i], r = x0[i] - c[i];
    want[i] = q * q * q * q * r * p[i];
    value += 0.5 * q * q * q * q * r * r * p[i];
  }

  double x[N], dx[N] = {0, 0, 0};
  memcpy(x, x0, sizeof x);
  printed = 0;
  CHECK_CLOSE(solve(x, c, p, N), value, 1e-14);
  CHECK_TRUE(printed == 4);

  /* Reverse mode: each report printed once, with the primal values. */
  memcpy(x, x0, sizeof x);
  printed = 0;
  __enzyme_autodiff((void *)solve, enzyme_dup, x, dx, enzyme_const, c,
                    enzyme_const, p, enzyme_const, N);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dx[i], want[i], 1e-14);
  CHECK_TRUE(printed == 4);
  char expect[64];
  snprintf(expect, sizeof expect, "done: obj = %.3f\n", value);
  CHECK_TRUE(strcmp(last, expect) == 0);

  /* Forward mode, one direction per coordinate. */
  for (int k = 0; k < N; ++k) {
    double tx[N] = {0, 0, 0};
    tx[k] = 1;
    memcpy(x, x0, sizeof x);
    printed = 0;
    double t = __enzyme_fwddiff((void *)solve, enzyme_dup, x, tx,
                                enzyme_const, c, enzyme_const, p,
                                enzyme_const, N);
    CHECK_CLOSE(t, want[k], 1e-14);
    CHECK_TRUE(printed == 4);
    CHECK_TRUE(strcmp(last, expect) == 0);
  }
  return check_finish();
}
