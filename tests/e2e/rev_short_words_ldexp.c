// ldexp written on the 16-bit words of a double, as Cephes writes it: the
// exponent field read from the top word (through a pointer variable), a
// subnormal x doubled or halved in a loop that counts the requested
// power down, the new exponent summed with that count and written back
// into the top word, and a result below the normal range made by one
// more product with ldexp(1, e - 1). Its derivative is 2^n in both modes,
// against the exact value and central differences. The count carried
// around the loop was unknown to the analysis of the bits (the whole
// function refused at -O1 to -O3, and at -O0 the words written through
// the pointer variable were refused too); with the count known, the -O0
// analysis read freed memory (its memo moved while it held an operand's
// bits) and gave a derivative of 0 (until 2026-12-06).
#include <math.h>
#include <stdio.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef union {
  double d;
  unsigned short w[4]; /* little-endian: w[3] holds sign and exponent */
} words;

__attribute__((noinline)) double times_pow2(double x, int n) {
  words u;
  short *top;
  int e;
  u.d = x;
  top = (short *)&u.w[3];
  while ((e = (*top & 0x7ff0) >> 4) == 0) {
    if (u.d == 0.0)
      return 0.0;
    if (n > 0) {
      u.d *= 2.0;
      n -= 1;
    }
    if (n < 0) {
      if (n < -53)
        return 0.0;
      u.d /= 2.0;
      n += 1;
    }
    if (n == 0)
      return u.d;
  }
  e += n;
  if (e >= 0x7ff)
    return HUGE_VAL;
  if (e < 1) {
    if (e < -53)
      return 0.0;
    *top &= 0x800f;
    *top |= 0x10;
    u.d *= times_pow2(1.0, e - 1);
    return u.d;
  }
  *top &= 0x800f;
  *top |= (e & 0x7ff) << 4;
  return u.d;
}

static int n_now;
static double g(double x) { return times_pow2(x, n_now) * 3.0; }

static int failures;

static void check(const char *what, double x, int n, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * fabs(want);
  failures += !ok;
  printf("%-18s x=%-12g n=%-4d %.17g (want %.17g)%s\n", what, x, n, got,
         want, ok ? "" : "  FAIL");
}

int main(void) {
  static const struct {
    double x;
    int n;
  } at[] = {{0.75, -3},   {-2.5, 7},    {1e-300, -3}, {1e-310, -3},
            {-3e-310, 40}, {2e-312, 2},  {1e-300, -40}, {-3e-300, -45},
            {5.0, 100},   {1e-305, 1000}};
  for (unsigned i = 0; i < sizeof at / sizeof at[0]; ++i) {
    double x = at[i].x;
    int n = at[i].n;
    /* (A subnormal halved step by step rounds at each step: to its last
       digits, 2^-1074.) */
    double y = ldexp(x, n);
    double unit = fabs(y) < 0x1p-1022 ? 0x1p-1074 / fabs(y) : 0;
    check("value", x, n, times_pow2(x, n), y, 4 * unit);
    n_now = n;
    double slope = 3.0 * ldexp(1.0, n);
    double r = __enzyme_autodiff((void *)g, x);
    double t = __enzyme_fwddiff((void *)g, x, 1.0);
    double h = 1e-6 * fabs(x);
    check("reverse", x, n, r, slope, 1e-15);
    check("forward", x, n, t, slope, 1e-15);
    /* (A subnormal result holds fewer digits: its rounding over the
       step.) */
    check("central difference", x, n, r, (g(x + h) - g(x - h)) / (2 * h),
          1e-6 + 8 * 0x1p-1074 / (2 * h) / fabs(slope));
  }
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
