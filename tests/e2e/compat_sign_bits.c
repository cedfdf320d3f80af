/* Sign operations written on a double's bits in scalar code: fabs as
 * `u & ~sign`, negation as `u ^ sign`, -fabs as `u | sign`, copysign as
 * `(u & ~sign) | (v & sign)`, through memcpy into a uint64_t and through
 * unions, doubles and floats. From -O1 on InstCombine reads them as fabs,
 * fneg and copysign; at -O0 adcc does (prepare/SignMasks.cpp, on the
 * function's locals made values: prepare/SimplifiedCopies.cpp). Gradients
 * and tangents against analytic values and central differences at each
 * level, forward against reverse. (Other integer operations on the bits
 * stay errors: tests/lit/errors/sign-bits-other.c.) */
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

extern int enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

#define SIGN 0x8000000000000000ull

static double fabs_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  u &= ~(1ull << 63);
  memcpy(&x, &u, 8);
  return x;
}
static double neg_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  u ^= 1ull << 63;
  memcpy(&x, &u, 8);
  return x;
}
static double copysign_bits(double x, double y) {
  uint64_t u, v;
  memcpy(&u, &x, 8);
  memcpy(&v, &y, 8);
  u = (u & ~SIGN) | (v & SIGN);
  memcpy(&x, &u, 8);
  return x;
}
typedef union {
  double d;
  uint64_t u;
} pun;
typedef union {
  float f;
  uint32_t u;
} punf;

/* helpers called: |x| y - x y + copysign(x^2, y) - 3 |y| */
static double helpers(double x, double y) {
  return fabs_bits(x) * y + neg_bits(x * y) + copysign_bits(x * x, y) +
         3 * -fabs_bits(y);
}
static double helpers_dx(double x, double y) {
  return (x < 0 ? -y : y) - y + (y < 0 ? -2 * x : 2 * x);
}
static double helpers_dy(double x, double y) {
  return fabs(x) - x - 3 * (y < 0 ? -1 : 1);
}

/* in one function, through unions: |x y| - (|x y| - y) computed as bits,
   -|x^2| as a float, copysign(x + 2y, x) y, and -|x| written as two
   operations on bits (an and, then an or) */
static double inline_ops(double x, double y) {
  pun a = {.d = x * y};
  a.u &= 0x7fffffffffffffffull;
  pun b;
  b.d = a.d - y;
  b.u ^= SIGN;
  punf c = {.f = (float)(x * x)};
  c.u |= 0x80000000u;
  uint64_t u, v;
  double z = x + 2 * y, r;
  memcpy(&u, &z, sizeof u);
  memcpy(&v, &x, sizeof v);
  u = (v & SIGN) | (u & ~SIGN);
  memcpy(&r, &u, sizeof r);
  pun e = {.d = x};
  e.u = (e.u & ~SIGN) | SIGN;
  return a.d + b.d + c.f + r * y + e.d;
}
static double inline_dx(double x, double y) {
  double sx = x < 0 ? -1 : 1, z = x + 2 * y, sz = z < 0 ? -1 : 1;
  /* a.d + b.d = y; copysign(z, x) = sx sz z */
  return -2 * x + sx * sz * y - sx;
}
static double inline_dy(double x, double y) {
  double sx = x < 0 ? -1 : 1, z = x + 2 * y, sz = z < 0 ? -1 : 1;
  return 1 + sx * sz * (z + 2 * y);
}

typedef double (*fn2)(double, double);

static void check_at(fn2 f, fn2 dx, fn2 dy, double x, double y, double h,
                     double fdtol) {
  double fdx = (f(x + h, y) - f(x - h, y)) / (2 * h);
  double fdy = (f(x, y + h) - f(x, y - h)) / (2 * h);
  double gx = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, y);
  double gy = __enzyme_autodiff((void *)f, enzyme_const, x, enzyme_out, y);
  double tx = __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0);
  double ty = __enzyme_fwddiff((void *)f, x, 0.0, y, 1.0);
  CHECK_CLOSE(gx, dx(x, y), 1e-12);
  CHECK_CLOSE(gy, dy(x, y), 1e-12);
  CHECK_CLOSE(tx, gx, 1e-14);
  CHECK_CLOSE(ty, gy, 1e-14);
  CHECK_CLOSE(fdx, gx, fdtol);
  CHECK_CLOSE(fdy, gy, fdtol);
}

int main(void) {
  double xs[] = {1.5, -1.25, 0.75, -2.5};
  double ys[] = {-2.0, 3.0, 0.5, -0.25};
  for (int i = 0; i < 4; ++i) {
    check_at(helpers, helpers_dx, helpers_dy, xs[i], ys[i], 1e-6, 1e-6);
    /* (a wider step: the float term's rounding) */
    check_at(inline_ops, inline_dx, inline_dy, xs[i], ys[i], 1e-3, 1e-3);
  }
  CHECK_CLOSE(helpers(-1.5, 2.0), 1.5 * 2 + 3 + 2.25 - 6, 1e-15);
  return check_finish();
}
