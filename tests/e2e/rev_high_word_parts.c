// fdlibm's pow splits numbers into a high part, built from the high word
// of another by integer arithmetic with its low word zero, and the rest
// computed as a float: `SET_HIGH_WORD(t_h, ((ix >> 1) | 0x20000000) +
// 0x00080000)` is the high part of 1 + ax (ax in [1, 2)), `t_l = ax - (t_h
// - 1)` the rest. The high part moves only when ax's high word does: a
// step function, with a derivative of 0 between its steps, as floor's;
// the rest carries ax's derivative. Each function, reverse and forward,
// against its analytic derivative and central differences. Until
// 2026-12-06 the high part was an error ("a floating-point value is made by
// integer arithmetic on the bits of another's significand"), and so was
// the whole of openlibm's pow (scripts/realcode/libm.sh).
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

/* The high part of 1 + ax, from ax's high word. */
__attribute__((noinline)) double high_of_sum(double ax) {
  words u, t;
  u.d = ax;
  int32_t ix = (int32_t)u.w.hi;
  t.w.hi = (uint32_t)(((ix >> 1) | 0x20000000) + 0x00080000);
  t.w.lo = 0;
  return t.d;
}

/* (1 + ax)^3 from the two parts: th^3 + 3 th^2 tl + 3 th tl^2 + tl^3. */
__attribute__((noinline)) double cube_of_sum(double ax) {
  double th = high_of_sum(ax);
  double tl = ax - (th - 1.0);
  return th * th * th + 3 * th * th * tl + 3 * th * tl * tl + tl * tl * tl;
}

/* As pow scales a subnormal first: the parts of |x| or of |x| 2^53 (the
   branch for subnormals is not checked: there the derivative of the
   mantissa alone, 2^1000 and more, overflows in forward mode). */
__attribute__((noinline)) double scaled_parts(double x) {
  double ax = fabs(x);
  words u;
  u.d = ax;
  int32_t ix = (int32_t)u.w.hi;
  int n = 0;
  if (ix < 0x00100000) {
    ax *= 0x1p53;
    u.d = ax;
    ix = (int32_t)u.w.hi;
    n = -53;
  }
  n += (ix >> 20) - 0x3ff;
  words m;
  m.d = ax;
  m.w.hi = (uint32_t)((ix & 0x000fffff) | 0x3ff00000); /* in [1, 2) */
  return cube_of_sum(m.d) * ldexp(1.0, n);
}

static double f_step(double x) { return 2 * high_of_sum(x) + x; }
static double f_cube(double x) { return cube_of_sum(x); }
static double f_scaled(double x) { return scaled_parts(x); }

static double d_step(double x) { return 1 + 0 * x; }
static double d_cube(double x) { return 3 * (1 + x) * (1 + x); }
static double d_scaled(double x) {
  int e;
  double m = 2 * frexp(fabs(x), &e); /* |x| = m 2^(e-1) */
  return 3 * (1 + m) * (1 + m) * (x < 0 ? -1 : 1);
}

int main(void) {
  /* (Inside a step: the high word of x +- h is that of x.) */
  CHECK(step, 1.25 + 0x1p-22, 1.7 + 0x1p-22);
  CHECK(cube, 1.0, 1.3, 1.999);
  CHECK(scaled, 1.3, -2.6, 3e-300, 7.5);
  if (scalar_derivative_failures)
    return 1;
  printf("ok\n");
  return 0;
}
