/*===- special.c - Special functions used by derivative code -------------===*
 *
 * The digamma function psi(x) = Gamma'(x) / Gamma(x), which the derivatives
 * of lgamma (psi) and tgamma (Gamma psi) need and libm lacks.
 *
 * Method:
 *   x < 0:  reflection, psi(x) = psi(1 - x) - pi cot(pi x);
 *   x < 10: recurrence, psi(x) = psi(x + 1) - 1/x, until x >= 10;
 *   x >= 10: the asymptotic series
 *           psi(x) = ln x - 1/(2x) - sum_k B_2k / (2k x^2k),
 *           summed to k = 7; the first omitted term is below 5e-17 there.
 *
 *===----------------------------------------------------------------------===*/

#include "adcc_runtime.h"

#include <math.h>

static const double pi = 3.14159265358979323846264338327950288;

/* B_2k / (2k) for k = 1..7, from the Bernoulli numbers 1/6, -1/30, 1/42,
   -1/30, 5/66, -691/2730, 7/6. */
static const double tail_coefficients[] = {
    1.0 / 12,  -1.0 / 120,     1.0 / 252, -1.0 / 240,
    1.0 / 132, -691.0 / 32760, 1.0 / 12};

/* sum_{k=1..7} B_2k / (2k x^2k), by Horner's rule in t = 1/x^2. */
static double asymptotic_tail(double x) {
  double t = 1.0 / (x * x);
  double sum = 0;
  for (int k = 6; k >= 0; --k)
    sum = sum * t + tail_coefficients[k];
  return sum * t;
}

double adcc_digamma(double x) {
  if (isnan(x))
    return x;
  /* Poles at 0, -1, -2, ...; every double beyond 2^52 in magnitude is an
     integer, and floor(-inf) is -inf, so -inf lands here too. */
  if (x <= 0 && x == floor(x))
    return NAN;
  double result = 0;
  if (x < 0) {
    /* cot(pi x) has period 1: reduce x by its nearest integer (exact) so
       that pi * r carries no large rounding error. */
    double r = x - round(x);
    result = -pi / tan(pi * r);
    x = 1 - x;
  }
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  return result + log(x) - 0.5 / x - asymptotic_tail(x);
}

float adcc_digammaf(float x) { return (float)adcc_digamma((double)x); }
