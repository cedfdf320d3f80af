/* Second derivatives of a double given a new exponent in its bits
 * (`b += K << 52` on a copy of a positive normal double's bits, as
 * fdlibm's scalbn and pow write it: the value times 2^K). The primal's
 * cast is rewritten once as the value scaled, with a derivative; until
 * 2026-12-06 a derivative differentiated again (forward over forward, ...)
 * rewrote its copy of the primal a second time, and the scaled value's
 * derivative counted twice at the outer level: f''(y) y'^2 came out twice
 * (adfuzz version 22 seed 216, forward over forward, at every level).
 * The four nestings (forward or reverse over forward or reverse) are
 * checked against the closed form and central differences of the first
 * derivative, through a call that is inlined or not. */
#include "check.h"

#include <string.h>

double __enzyme_fwddiff(void *, ...);
double __enzyme_autodiff(void *, ...);

/* y = v * 2^k through v's bits (v positive and normal) */
static double scaled(double v, int k) {
  unsigned long long b;
  memcpy(&b, &v, sizeof b);
  b += (unsigned long long)k << 52;
  double y;
  memcpy(&y, &b, sizeof y);
  return y;
}
__attribute__((noinline)) static double scaled_call(double v, int k) {
  return scaled(v, k);
}

/* f(x) = exp(tanh(y)) + y / 8, y = 2^K (1.5 + x^2) (K = 1 and 2) */
static double f1(double x) {
  double y = scaled(1.5 + x * x, 1);
  return exp(tanh(y)) + y / 8;
}
static double f2(double x) {
  double y = scaled_call(1.5 + x * x, 2);
  return exp(tanh(y)) + y / 8;
}

static double exact1(double x, int k) {
  double c = (double)(1 << k), y = c * (1.5 + x * x), t = tanh(y);
  double s = 1 - t * t, yp = 2 * c * x;
  return (exp(t) * s + 0.125) * yp;
}
static double exact2(double x, int k) {
  double c = (double)(1 << k), y = c * (1.5 + x * x), t = tanh(y);
  double s = 1 - t * t, yp = 2 * c * x, ypp = 2 * c;
  double fp = exp(t) * s + 0.125, fpp = exp(t) * (s * s - 2 * t * s);
  return fpp * yp * yp + fp * ypp;
}

/* the first derivatives, each of a function known at compile time */
#define FIRST(f)                                                               \
  static double fwd_##f(double x) {                                            \
    return __enzyme_fwddiff((void *)f, x, 1.0);                                \
  }                                                                            \
  static double rev_##f(double x) { return __enzyme_autodiff((void *)f, x); }
FIRST(f1)
FIRST(f2)

static double fd(double (*g)(double), double x) {
  double h = 1e-5;
  volatile double xp = x + h, xm = x - h;
  return (g(xp) - g(xm)) / (xp - xm);
}

static const double XS[] = {-0.048, 0.3, -0.7, 1.1};

#define CHECK_ALL(f, k)                                                        \
  for (unsigned i = 0; i < sizeof XS / sizeof XS[0]; ++i) {                    \
    double x = XS[i], want = exact2(x, k);                                     \
    CHECK_CLOSE(fwd_##f(x), exact1(x, k), 1e-12);                              \
    CHECK_CLOSE(rev_##f(x), exact1(x, k), 1e-12);                              \
    CHECK_CLOSE(fd(fwd_##f, x), want, 1e-6);                                   \
    CHECK_CLOSE(__enzyme_fwddiff((void *)fwd_##f, x, 1.0), want, 1e-12);       \
    CHECK_CLOSE(__enzyme_fwddiff((void *)rev_##f, x, 1.0), want, 1e-12);       \
    CHECK_CLOSE(__enzyme_autodiff((void *)fwd_##f, x), want, 1e-12);           \
    CHECK_CLOSE(__enzyme_autodiff((void *)rev_##f, x), want, 1e-12);           \
  }

int main(void) {
  CHECK_ALL(f1, 1)
  CHECK_ALL(f2, 2)
  return check_finish();
}
