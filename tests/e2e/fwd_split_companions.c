/* Split forward mode and the sine a cosine's tangent borrows. Forward mode
 * takes the partial of cos(a), -sin(a), from the primal's own sin(a) when
 * the block computes one, and moves that call up to just after cos(a).
 * libm's sin and cos may set errno, so split forward mode's tangent sweep
 * reads their values from the records, in its own order; the recording
 * sweep writes them in the primal's order. Until 2026-12-06 the sine was
 * moved across other such calls there too (`c = atan(cos(a)); sin(a)`):
 * the tangent sweep read sin's record where atan's was, and the tangent
 * was silently wrong at -O1 and above (adfuzz version 25 seed 1726, by
 * 2.4e-6 relative; here by up to a factor of 4). Each tangent is checked against the
 * one-call forward mode, reverse mode and central differences. */
#include "fwd_check.h"

#include <string.h>

enum { N = 3 };

/* Another libm call between the cosine and the sine (seed 1726's h9). */
static double rotated(const double *x) {
  double a = x[0] * x[1];
  double c = atan(cos(a));
  return sin(a) * c + x[2];
}

/* A hyperbolic pair with exp in between (x is read before). */
static double hyperbolic(const double *x) {
  double l = log(1.5 + x[2] * x[2]), y = x[1];
  double ch = cosh(y);
  double e = exp(0.1 * ch) + l;
  return sinh(y) * e;
}

/* The sine first, the cosine after a store, a load and erf. */
static double buf[2];
static double stored(const double *x) {
  double s = sin(x[2]);
  buf[0] = s * x[0];
  double e = erf(buf[0] + x[1]);
  return cos(x[2]) * e;
}

/* A call of a function with a tangent sweep of its own in between. */
__attribute__((noinline)) static double damp(double a, double b) {
  return tanh(a) / (1.2 + exp(b));
}
static double called(const double *x) {
  double c = cos(x[0]);
  double d = damp(c, x[1]);
  return sin(x[0]) * d + x[2] * c;
}

/* In a loop: each iteration's records between its own pair. */
static double looped(const double *x) {
  double acc = 0;
  for (int i = 0; i < N; ++i) {
    double c = cos(x[i] + 0.3 * i);
    double t = atan(c * x[(i + 1) % N]);
    acc += sin(x[i] + 0.3 * i) * t;
  }
  return acc;
}

/* Only arithmetic in between: the sine is still shared. */
static double adjacent(const double *x) {
  double c = cos(x[1]);
  double y = c * x[0] + x[2];
  return sin(x[1]) * y;
}

static const double X0[N] = {0.7, 1.1, -0.4};
#include "fwd_split_check.h"

int main(void) {
  /* rotated at x0: d/dx0 by hand, a = x0 x1, f = sin(a) atan(cos(a)) */
  {
    double x[N], dx[N] = {1, 0, 0};
    memcpy(x, X0, sizeof x);
    double a = X0[0] * X0[1];
    double exact = X0[1] * (cos(a) * atan(cos(a)) -
                            sin(a) * sin(a) / (1 + cos(a) * cos(a)));
    void *tape = __enzyme_augmentfwd((void *)rotated, enzyme_dup, x, dx);
    CHECK_CLOSE(__enzyme_fwdsplit((void *)rotated, enzyme_dup, x, dx, tape),
                exact, FWD_TOL_EXACT);
  }
  check(rotated);
  check(hyperbolic);
  check(stored);
  check(called);
  check(looped);
  check(adjacent);
  return check_finish();
}
