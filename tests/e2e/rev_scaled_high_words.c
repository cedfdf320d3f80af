// A hypotenuse written on the words of doubles in fdlibm's manner (not its
// code): the high words of x and y compared and swapped with them (from
// -O1 an unsigned max and min of the words), both numbers scaled by 2^-600
// where the larger passes 2^500 and by 2^600 where the smaller is below
// 2^-500, by subtracting from or adding to the exponent fields of their
// high words (`ha -= 600 << 20`; the low words are those of fabs(x or y),
// and the second scaling's source is a phi of the first one's result and
// the unscaled number), a subnormal smaller number scaled by 2^1022 as a
// product, the root of a sum split into a high part (a high word with a
// low word of 0: a step) and its float rest, and the result scaled back by
// a power of two built in the bits. Each scaling is followed as a product
// by a power of two; until 2026-12-07 every one was an error at every level
// (openlibm's hypot).
//
// Against x / hypot(x, y) and y / hypot(x, y), forward against reverse and
// central differences, -O0 to -O3, at ordinary arguments, near overflow and
// underflow (where the scalings run) and at subnormals. Where one number
// is more than 2^60 times the other the program returns a + b: a path
// whose derivative is the sign of each (checked as such).
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_const;

typedef union {
  double value;
  struct {
    uint32_t lo, hi;
  } w;
} words;

#define HIGH_OF(h, d)                                                          \
  do {                                                                         \
    words u_;                                                                  \
    u_.value = (d);                                                            \
    (h) = u_.w.hi;                                                             \
  } while (0)
#define LOW_OF(l, d)                                                           \
  do {                                                                         \
    words u_;                                                                  \
    u_.value = (d);                                                            \
    (l) = u_.w.lo;                                                             \
  } while (0)
#define WITH_HIGH(d, h)                                                        \
  do {                                                                         \
    words u_;                                                                  \
    u_.value = (d);                                                            \
    u_.w.hi = (h);                                                             \
    (d) = u_.value;                                                            \
  } while (0)

/* 600 in the exponent field of a high word. */
#define SIX_HUNDRED (600 << 20)

__attribute__((noinline)) double hypotenuse(double x, double y) {
  double a, b, w, hi, rest, two1022;
  int32_t ha, hb, t, k = 0;
  uint32_t low;
  HIGH_OF(ha, x);
  ha &= 0x7fffffff;
  HIGH_OF(hb, y);
  hb &= 0x7fffffff;
  if (hb > ha) {
    a = y;
    b = x;
    t = ha;
    ha = hb;
    hb = t;
  } else {
    a = x;
    b = y;
  }
  a = fabs(a);
  b = fabs(b);
  if (ha - hb > 0x3c00000) /* a / b > 2^60 */
    return a + b;
  if (ha > 0x5f300000) { /* a > 2^500: both scaled by 2^-600 */
    if (ha >= 0x7ff00000)
      return a + b;
    ha -= SIX_HUNDRED;
    hb -= SIX_HUNDRED;
    k += 600;
    WITH_HIGH(a, ha);
    WITH_HIGH(b, hb);
  }
  if (hb < 0x20b00000) {   /* b < 2^-500 */
    if (hb <= 0x000fffff) { /* subnormal b, or 0 */
      LOW_OF(low, b);
      if ((hb | low) == 0)
        return a;
      two1022 = 0;
      WITH_HIGH(two1022, 0x7fd00000);
      a *= two1022;
      b *= two1022;
      k -= 1022;
      HIGH_OF(ha, a);
    } else { /* both scaled by 2^600 */
      ha += SIX_HUNDRED;
      hb += SIX_HUNDRED;
      k -= 600;
      WITH_HIGH(a, ha);
      WITH_HIGH(b, hb);
    }
  }
  /* a^2 + b^2 with a's high part squared exactly. */
  hi = 0;
  WITH_HIGH(hi, ha);
  rest = a - hi;
  w = sqrt(hi * hi + (rest * (a + hi) + b * b));
  if (k == 0)
    return w;
  double s = 1.0;
  HIGH_OF(t, s);
  WITH_HIGH(s, t + (k << 20));
  return s * w;
}

static double along_x(double x) { return hypotenuse(x, 0.75 * x + 1e-3 * x); }

static int failures;

/* The derivative the program's path has: sqrt's, or a + b's where one
   number is more than 2^60 times the other. */
static double expected(double u, double v) {
  return fabs(u) > 0x1p60 * fabs(v) || fabs(v) > 0x1p60 * fabs(u)
             ? copysign(1, u)
             : u / hypot(u, v);
}

static double difference(double x, double y, int in_y) {
  double e = 1e-6 * fabs(in_y ? y : x);
  return in_y ? (hypotenuse(x, y + e) - hypotenuse(x, y - e)) / (2 * e)
              : (hypotenuse(x + e, y) - hypotenuse(x - e, y)) / (2 * e);
}

static void check(double x, double y) {
  double gx = __enzyme_autodiff((void *)hypotenuse, x, enzyme_const, y);
  double gy = __enzyme_autodiff((void *)hypotenuse, enzyme_const, x, y);
  double tx = __enzyme_fwddiff((void *)hypotenuse, x, 1.0, y, 0.0);
  double ty = __enzyme_fwddiff((void *)hypotenuse, x, 0.0, y, 1.0);
  double h = hypot(x, y), wx = expected(x, y), wy = expected(y, x);
  double dx = difference(x, y, 0), dy = difference(x, y, 1);
  int far = fabs(x) > 0x1p60 * fabs(y) || fabs(y) > 0x1p60 * fabs(x);
  /* (At subnormal arguments reverse mode's adjoint of the scaled b passes
     through the subnormals between the result's 2^-1022 and b's 2^1022,
     and keeps some 46 bits: status.md, Known bugs.) */
  double same = fabs(x) < DBL_MIN || fabs(y) < DBL_MIN ? 1e-13 : 1e-15;
  int ok = fabs(hypotenuse(x, y) - h) <= 1e-15 * h &&
           fabs(gx - wx) <= 1e-12 * fabs(wx) &&
           fabs(gy - wy) <= 1e-12 * fabs(wy) &&
           fabs(tx - gx) <= same * fabs(gx) &&
           fabs(ty - gy) <= same * fabs(gy) &&
           /* (a + b's difference in the smaller is lost in the sum.) */
           (far || (fabs(dx - wx) <= 1e-6 * fabs(wx) + 1e-9 &&
                    fabs(dy - wy) <= 1e-6 * fabs(wy) + 1e-9));
  failures += !ok;
  printf("x=%-9g y=%-9g d/dx reverse %.17g forward %.17g difference %.10g "
         "expected %.17g; d/dy reverse %.17g forward %.17g difference %.10g "
         "expected %.17g%s\n",
         x, y, gx, tx, dx, wx, gy, ty, dy, wy, ok ? "" : "  FAIL");
}

int main(void) {
  const double xs[][2] = {
      {3, 4},          {-0.3, 2},         {2, 0.6},        {0.5, -0.6},
      {1e300, 2e300},  {-3e300, 1e299},   {1e308, 5e307},  {1e-300, 3e-300},
      {2e-300, -1e-301}, {1e-308, 3e-310}, {3e-310, -4e-310}, {5e150, 1e150},
      {1e200, 1e-200}, {-7.0, 3e-18}};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i)
    check(xs[i][0], xs[i][1]);
  /* Both at once, along a line. */
  double r = __enzyme_autodiff((void *)along_x, 1e300);
  double t = __enzyme_fwddiff((void *)along_x, 1e300, 1.0);
  double want = hypot(1, 0.751);
  int ok = fabs(r - want) <= 1e-12 * want && fabs(t - r) <= 1e-15 * want;
  failures += !ok;
  printf("along x=1e300: reverse %.17g forward %.17g, expected %.17g%s\n", r,
         t, want, ok ? "" : "  FAIL");
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
