// A float made by integer arithmetic on the bits of another's significand
// is an error at every level, in both modes (math libraries compiled from
// source, scripts/realcode/libm.sh: openlibm's sqrt computes the result bit
// by bit in a loop). Until 2026-12-06 each of these was differentiated as
// a constant: a derivative of 0, silently. A floor written on the bits
// (fdlibm's: the fraction's bits cleared by a mask computed from the
// exponent, one added at the last bit kept for negative values) is not
// this error: its bits stay in place (openlibm's floor is differentiated,
// with a derivative of 0; this one is refused by the older error on
// integer operations on a float's bits, docs/status.md).
// RUN: %expect-exit 1 %adcc -O0 -DSHIFTED -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHIFTED
// RUN: %expect-exit 1 %adcc -O2 -DSHIFTED -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHIFTED
// RUN: %expect-exit 1 %adcc -O1 -DINVSQRT -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INVSQRT
// RUN: %expect-exit 1 %adcc -O3 -DINVSQRT -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INVSQRT
// RUN: %expect-exit 1 %adcc -O2 -DBITWISE -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BITWISE
// RUN: %expect-exit 1 %adcc -O2 -DFASTLOG -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FASTLOG
// RUN: %expect-exit 1 %adcc -O0 -DFLOOR -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOOR --implicit-check-not="integer arithmetic"
// RUN: %expect-exit 1 %adcc -O2 -DFLOOR -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOOR --implicit-check-not="integer arithmetic"

// SHIFTED: float-bits-arithmetic.c:[[#@LINE+20]]:3: error: cannot differentiate 'crude_sqrt' in reverse mode: a floating-point value is made by integer arithmetic on the bits of another's significand (a square root or logarithm computed from the bits), whose derivative adcc cannot follow; use floating-point operations, or move it into a function with a custom derivative, or, where that function computes a math function, mark it as one (enzyme_function_like("sqrt"))
// SHIFTED: error: cannot differentiate 'crude_sqrt' in forward mode
// INVSQRT: error: cannot differentiate 'inv_sqrt' in reverse mode: a floating-point value is made by integer arithmetic
// INVSQRT: error: cannot differentiate 'inv_sqrt' in forward mode
// BITWISE: error: cannot differentiate 'bitwise_sqrt' in reverse mode: a floating-point value is made by integer arithmetic
// FASTLOG: error: cannot differentiate 'fast_log2' in reverse mode: a floating-point value is made by integer arithmetic
// FLOOR: error: cannot differentiate 'bits_floor'
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#ifdef SHIFTED
__attribute__((noinline)) double crude_sqrt(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  u = (u >> 1) + (0x3ff0000000000000ull >> 1);
  double y;
  memcpy(&y, &u, 8);
  return y;
}
#define F crude_sqrt
#endif

#ifdef INVSQRT
__attribute__((noinline)) double inv_sqrt(double x) {
  float f = (float)x, y;
  int32_t i;
  memcpy(&i, &f, 4);
  i = 0x5f3759df - (i >> 1);
  memcpy(&y, &i, 4);
  return y * (1.5f - 0.5f * f * y * y);
}
#define F inv_sqrt
#endif

#ifdef BITWISE
// The square root of x in [1, 4), bit by bit, as fdlibm's e_sqrt.c.
__attribute__((noinline)) double bitwise_sqrt(double x) {
  uint64_t u, m, q = 0, s = 0, r = 1ull << 53;
  memcpy(&u, &x, 8);
  m = ((u & 0xfffffffffffffull) | (1ull << 52)) << ((u >> 52) & 1);
  m <<= 1;
  while (r) {
    uint64_t t = s + r;
    if (t <= m) {
      s = t + r;
      m -= t;
      q += r;
    }
    m <<= 1;
    r >>= 1;
  }
  u = ((q >> 1) & 0xfffffffffffffull) | 0x3ff0000000000000ull;
  double y;
  memcpy(&y, &u, 8);
  return y;
}
#define F bitwise_sqrt
#endif

#ifdef FASTLOG
// log2(x) read from the bits: the bits as a number, scaled.
__attribute__((noinline)) double fast_log2(double x) {
  int64_t i;
  memcpy(&i, &x, 8);
  return (double)i * 0x1p-52 - 1023;
}
#define F fast_log2
#endif

#ifdef FLOOR
// floor(x) for 1 <= |x| < 2^52, on the bits.
__attribute__((noinline)) double bits_floor(double x) {
  int64_t i;
  memcpy(&i, &x, 8);
  int e = (int)((i >> 52) & 0x7ff) - 1023;
  int64_t fraction = 0xfffffffffffffll >> e;
  if ((i & fraction) == 0)
    return x;
  if (i < 0)
    i += 0x10000000000000ll >> e;
  i &= ~fraction;
  double y;
  memcpy(&y, &i, 8);
  return y;
}
#define F bits_floor
#endif

static double g(double x) { return F(x) * x; }
int main(void) {
  printf("%g %g\n", __enzyme_autodiff((void *)g, 2.0),
         __enzyme_fwddiff((void *)g, 2.0, 1.0));
  return 0;
}
