/* Enzyme's __enzyme_iter(n, step): n in the program, n + step in a
 * derivative of the function that calls it, n + 2 step in a derivative of
 * that derivative: a truncated series gets more terms for each higher
 * derivative. Here exp by its Taylor series, to n terms: the program's
 * value has n = 6; its first derivative (reverse and forward mode) is that
 * of the series to 8 terms, and its second (reverse over reverse, forward
 * over reverse) that of the series to 10. Checked against those
 * polynomials, exactly, and against exp within their truncation. */
#include "check.h"

unsigned long long __enzyme_iter(unsigned long long, unsigned long long);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double series(double x) {
  unsigned long long n = __enzyme_iter(6, 2);
  double term = 1, s = 1;
  for (unsigned long long i = 1; i <= n; ++i) {
    term *= x / (double)i;
    s += term;
  }
  return s;
}

static double d_series(double x) { return __enzyme_autodiff((void *)series, x); }
static double dd_series(double x) {
  return __enzyme_autodiff((void *)d_series, x);
}

/* sum_{i <= n} x^i / i! */
static double partial(double x, int n) {
  double term = 1, s = 1;
  for (int i = 1; i <= n; ++i) {
    term *= x / i;
    s += term;
  }
  return s;
}

int main(void) {
  const double x = 0.7;
  CHECK_CLOSE(series(x), partial(x, 6), 1e-15);
  /* d/dx of the series to 8 terms: the series to 7 */
  CHECK_CLOSE(d_series(x), partial(x, 7), 1e-15);
  CHECK_CLOSE(__enzyme_fwddiff((void *)series, x, 1.0), partial(x, 7), 1e-15);
  /* the second derivative of the series to 10 terms: the series to 8 */
  CHECK_CLOSE(dd_series(x), partial(x, 8), 1e-15);
  CHECK_CLOSE(__enzyme_fwddiff((void *)d_series, x, 1.0), partial(x, 8),
              1e-15);
  /* All within their truncation of exp. */
  CHECK_CLOSE(dd_series(x), exp(x), 1e-5);
  /* The central difference of the first derivative: about the second
   * derivative of the series to 8 terms (the series to 6). */
  const double h = 1e-5;
  CHECK_CLOSE((d_series(x + h) - d_series(x - h)) / (2 * h), partial(x, 6),
              1e-8);
  return check_finish();
}
