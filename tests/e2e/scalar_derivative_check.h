// The check of the one-argument functions of the float-bits tests: for
// each function f_NAME with its analytic derivative d_NAME, the
// derivative at each point by reverse and forward mode against the
// analytic value (to 1e-12) and central differences (to 1e-6).
// `CHECK(NAME, x0, x1, ...)` checks the points; main returns
// `scalar_derivative_failures ? 1 : 0`.
#ifndef ADCC_E2E_SCALAR_DERIVATIVE_CHECK_H
#define ADCC_E2E_SCALAR_DERIVATIVE_CHECK_H

#include <math.h>
#include <stdio.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int scalar_derivative_failures;

static void check_scalar_derivative(const char *name, double (*f)(double),
                                    double x, double r, double t,
                                    double want) {
  double h = 1e-7 * fabs(x), up = x + h, down = x - h;
  double diff = (f(up) - f(down)) / (up - down);
  int ok = fabs(r - want) <= 1e-12 * fabs(want) &&
           fabs(t - want) <= 1e-12 * fabs(want) &&
           fabs(diff - want) <= 1e-6 * fabs(want);
  if (!ok) {
    printf("%s(%g): reverse %.17g forward %.17g difference %.17g, "
           "expected %.17g\n",
           name, x, r, t, diff, want);
    ++scalar_derivative_failures;
  }
}

#define CHECK(name, ...)                                                      \
  do {                                                                        \
    const double xs[] = {__VA_ARGS__};                                        \
    for (unsigned k = 0; k < sizeof xs / sizeof xs[0]; ++k)                   \
      check_scalar_derivative(#name, f_##name, xs[k],                         \
                              __enzyme_autodiff((void *)f_##name, xs[k]),     \
                              __enzyme_fwddiff((void *)f_##name, xs[k], 1.0), \
                              d_##name(xs[k]));                               \
  } while (0)

#endif
