// frexp written on the 16-bit words of a double, as Cephes writes it (a
// union of a double and four unsigned shorts; the exponent field read from
// the top word, subnormals doubled in a loop that counts the exponent
// down, then the top word given the exponent of [0.5, 1)). The mantissa is
// x scaled by a power of two: its derivative 2^-e, in both modes, against
// the analytic value and central differences. The count carried around
// the loop was unknown to the analysis of the bits, which then refused the
// whole function at -O2 and -O3 (until 2026-12-06). At -O0 the words
// written through a pointer variable (`top`) were an error until
// 2026-12-06; the pointer variable is now followed to the union, whose
// words are then read in registers as at -O1.
#include <math.h>
#include <stdio.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef union {
  double d;
  unsigned short w[4]; /* little-endian: w[3] holds sign and exponent */
} words;

__attribute__((noinline)) double mantissa(double x, int *e) {
  words u;
  u.d = x;
  unsigned short *top = &u.w[3];
  int n = (*top >> 4) & 0x7ff;
  if (n == 0) {
    if (u.d == 0.0) {
      *e = 0;
      return 0.0;
    }
    int k;
    do {
      u.d *= 2.0;
      n -= 1;
      k = (*top >> 4) & 0x7ff;
    } while (k == 0);
    n += k;
  }
  *e = n - 0x3fe;
  *top &= 0x800f;
  *top |= 0x3fe0;
  return u.d;
}

static double m(double x) {
  int e;
  return mantissa(x, &e);
}

static int failures;

static void check(const char *what, double x, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * fabs(want);
  failures += !ok;
  printf("%-18s x=%-12g %.17g (want %.17g)%s\n", what, x, got, want,
         ok ? "" : "  FAIL");
}

int main(void) {
  const double xs[] = {-2.5, 0.75, 3e10, 1e-300, 3e-320, -4e-315};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
    double x = xs[i];
    int e, want_e;
    double want = frexp(x, &want_e);
    check("value", x, mantissa(x, &e), want, 0);
    if (e != want_e) {
      printf("exponent %d, want %d  FAIL\n", e, want_e);
      ++failures;
    }
    /* (A subnormal's slope, 2^1022 and up, is no double: its value and
       exponent only; the loop is there either way.) */
    if (fabs(x) < 0x1p-1022)
      continue;
    double slope = ldexp(1.0, -want_e);
    double r = __enzyme_autodiff((void *)m, x);
    double t = __enzyme_fwddiff((void *)m, x, 1.0);
    double h = 1e-7 * fabs(x);
    check("reverse", x, r, slope, 1e-15);
    check("forward", x, t, slope, 1e-15);
    check("central difference", x, r, (m(x + h) - m(x - h)) / (2 * h), 1e-6);
  }
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
