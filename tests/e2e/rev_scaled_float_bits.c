// Math library idioms on the words of doubles, written as fdlibm writes
// them (a union of a double and two 32-bit words; scripts/realcode/libm.sh
// runs openlibm itself): frexp and scalbn set a new exponent and keep the
// significand, a logarithm reduces x to [sqrt(2)/2, sqrt(2)) by its
// exponent bits, and rem_pio2 rounds x * 2/pi to an integer
// by adding 0x1.8p52. Each derivative, reverse and forward, against the
// analytic one and central differences, at -O0 to -O3 (at -O0 the words
// go through the union's memory, followed since 2026-12-06). Until
// 2026-12-06 all but the rounding were refused; the rounding was
// differentiated as the identity (a reduced argument with a derivative of
// 0: sin's of 0 for |x| > 3pi/4).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "scalar_derivative_check.h"

typedef union {
  double value;
  struct {
    uint32_t lsw, msw;
  } parts;
} shape;

#define GET_HIGH_WORD(i, d) do { shape u_; u_.value = (d); (i) = u_.parts.msw; } while (0)
#define SET_HIGH_WORD(d, v) do { shape u_; u_.value = (d); u_.parts.msw = (v); (d) = u_.value; } while (0)

/* frexp's mantissa in [0.5, 1), subnormals scaled first. */
__attribute__((noinline)) double mantissa(double x, int *e) {
  int32_t hx, ix;
  GET_HIGH_WORD(hx, x);
  ix = hx & 0x7fffffff;
  *e = 0;
  if (ix < 0x00100000) {
    x *= 0x1p54;
    GET_HIGH_WORD(hx, x);
    ix = hx & 0x7fffffff;
    *e = -54;
  }
  *e += (ix >> 20) - 1022;
  SET_HIGH_WORD(x, (hx & 0x800fffff) | 0x3fe00000);
  return x;
}

/* x * 2^n for a normal result. */
__attribute__((noinline)) double scale(double x, int n) {
  int32_t hx;
  GET_HIGH_WORD(hx, x);
  SET_HIGH_WORD(x, hx + (n << 20));
  return x;
}

/* log(x) = k log 2 + log1p(f), x reduced by its exponent bits. */
__attribute__((noinline)) double reduced_log(double x) {
  int32_t hx, i, k;
  GET_HIGH_WORD(hx, x);
  k = (hx >> 20) - 1023;
  hx &= 0x000fffff;
  i = (hx + 0x95f64) & 0x100000;
  SET_HIGH_WORD(x, hx | (i ^ 0x3ff00000));
  k += i >> 20;
  return k * 0.6931471805599453 + log1p(x - 1);
}

/* sin(x) with x reduced by n = rint(x * 2/pi), as fdlibm's rem_pio2. */
__attribute__((noinline)) double reduced_sin(double x) {
  double fn = x * 0.63661977236758138 + 0x1.8p52;
  fn = fn - 0x1.8p52;
  int n = (int)fn;
  double r = x - fn * 1.5707963267948966 - fn * 6.123233995736766e-17;
  switch (n & 3) {
  case 0: return sin(r);
  case 1: return cos(r);
  case 2: return -sin(r);
  default: return -cos(r);
  }
}

static double f_mantissa(double x) { int e; return mantissa(x, &e); }
static double f_scale(double x) { return scale(x, 5) + scale(x, -3); }
static double f_log(double x) { return reduced_log(x); }
static double f_sin(double x) { return reduced_sin(x); }

static double d_mantissa(double x) { int e; frexp(x, &e); return ldexp(1, -e); }
static double d_scale(double x) { return 32 + 0.125 + 0 * x; }
static double d_log(double x) { return 1 / x; }
static double d_sin(double x) { return cos(x); }

int main(void) {
  CHECK(mantissa, -2.5, 0.75, 3e10, 1e-308, -2e-308);
  CHECK(scale, -2.5, 0.75, 3e10);
  CHECK(log, 0.3, 0.9, 1.5, 10, 1e10);
  CHECK(sin, 0.5, 2.0, -4.0, 100.0, 3e3);
  if (scalar_derivative_failures)
    return 1;
  printf("ok\n");
  return 0;
}
