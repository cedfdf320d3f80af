// The words of a double written and read through a union in memory, as
// fdlibm's GET_HIGH_WORD, GET_LOW_WORD, SET_HIGH_WORD and INSERT_WORDS
// do: at -O0 the double is stored into the union's memory and its 32-bit
// words read back (or the words stored and the double read back), which
// the derivatives follow as they follow the same bits in registers from
// -O1 on. Each function is differentiated in both modes and checked
// against its analytic derivative and central differences. Until
// 2026-12-06 every one of them was refused at -O0 ("an integer is stored
// over a part of a floating-point value with a derivative"), and a low
// word cleared (SET_LOW_WORD(z, 0), openlibm's erf) at every level.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "scalar_derivative_check.h"

typedef union {
  double d;
  struct {
    uint32_t lo, hi;
  } w;
} words;

/* |x| by clearing the sign in the high word. */
__attribute__((noinline)) double word_fabs(double x) {
  words u;
  u.d = x;
  uint32_t hi = u.w.hi;
  words v;
  v.d = x;
  v.w.hi = hi & 0x7fffffffu;
  return v.d;
}

/* -x by flipping the sign bit of the high word in place. */
__attribute__((noinline)) double word_negate(double x) {
  words u;
  u.d = x;
  u.w.hi ^= 0x80000000u;
  return u.d;
}

/* The magnitude of x with the sign of s, the words put together again. */
__attribute__((noinline)) double word_copysign(double x, double s) {
  words a, b, r;
  a.d = x;
  b.d = s;
  r.w.lo = a.w.lo;
  r.w.hi = (a.w.hi & 0x7fffffffu) | (b.w.hi & 0x80000000u);
  return r.d;
}

/* x * 2^n by adding n to the exponent field (normal results). */
__attribute__((noinline)) double word_scale(double x, int n) {
  words u;
  u.d = x;
  uint32_t hi = u.w.hi, lo = u.w.lo;
  words r;
  r.w.hi = hi + ((uint32_t)n << 20);
  r.w.lo = lo;
  return r.d;
}

/* The mantissa in [1, 2): the exponent field set to the bias. */
__attribute__((noinline)) double word_mantissa(double x) {
  words u;
  u.d = x;
  u.w.hi = (u.w.hi & 0x800fffffu) | 0x3ff00000u;
  return u.d;
}

/* x with its low word cleared (fdlibm's SET_LOW_WORD(z, 0)): a step
   function of x, whose derivative is 0 between its steps. */
__attribute__((noinline)) double word_clear_low(double x) {
  words u;
  u.d = x;
  u.w.lo = 0;
  return u.d;
}

/* erf's split: exp(-x^2) as exp(-z^2) exp((z - x)(z + x)) with z = x
   truncated, whose derivative comes through x - z. */
__attribute__((noinline)) double split_gauss(double x) {
  double z = word_clear_low(x);
  return exp(-z * z) * exp((z - x) * (z + x));
}

static double f_fabs(double x) { return word_fabs(x) * x; }
static double f_negate(double x) { return word_negate(x * x) * x; }
static double f_copysign(double x) { return word_copysign(x, -1.5) * 3; }
static double f_scale(double x) { return word_scale(x, 4) - word_scale(x * x, -2); }
static double f_mantissa(double x) { return word_mantissa(x) * word_mantissa(x); }

/* The sign flipped through a char pointer variable over the double (its
   top byte): at -O0 the pointer is a local written once, followed to the
   double it points into (an error until 2026-12-06, lit
   errors/float-part-stores.c). */
__attribute__((noinline)) double byte_flip(double x) {
  double y = x * x;
  unsigned char *b = (unsigned char *)&y;
  b[7] ^= 0x80;
  return y * x;
}

static double f_step(double x) { return 3 * word_clear_low(x) + x; }
static double f_flip(double x) { return byte_flip(x); }
static double d_flip(double x) { return -3 * x * x; }
static double f_gauss(double x) { return split_gauss(x); }
static double d_step(double x) { return 1 + 0 * x; }
static double d_gauss(double x) { return -2 * x * exp(-x * x); }
static double d_fabs(double x) { return 2 * fabs(x); }
static double d_negate(double x) { return -3 * x * x; }
static double d_copysign(double x) { return x < 0 ? 3 : -3; }
static double d_scale(double x) { return 16 - 0.5 * x; }
static double d_mantissa(double x) {
  int e;
  frexp(x, &e); /* the mantissa is x 2^(1-e), in [1, 2) for x > 0 */
  double s = ldexp(1, 1 - e);
  return 2 * x * s * s;
}

int main(void) {
  CHECK(fabs, -2.5, 0.75, 3e10);
  CHECK(negate, -2.5, 0.75, 3e10);
  CHECK(copysign, -2.5, 0.75, 3e10);
  CHECK(scale, -2.5, 0.75, 3e10);
  CHECK(mantissa, -2.5, 0.75, 3e10, 1.3);
  /* (Inside a step: x + h and x - h have the same high word.) */
  CHECK(step, 0.75 + 0x1p-22, -2.5 - 0x1p-20);
  CHECK(gauss, 0.3, -0.9, 1.7);
  CHECK(flip, -2.5, 0.75, 3e10);
  if (scalar_derivative_failures)
    return 1;
  printf("ok\n");
  return 0;
}
