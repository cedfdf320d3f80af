// A square root computed bit by bit on the integer bits of a double (as
// openlibm's e_sqrt.c computes it) has no derivative adcc can follow: the
// result's significand is made by integer arithmetic on x's (an error,
// lit errors/float-bits-arithmetic.c). Marked as computing sqrt
// (`enzyme_function_like("sqrt")`, Enzyme's attribute), calls of it are
// differentiated with sqrt's rule, its body not: the derivatives of
// functions that call it are exact, in both modes, at -O0 to -O3 (reverse
// against 1/(2 sqrt(x)) and central differences, forward against reverse).
// scripts/realcode/libm.sh checks openlibm's own sqrt marked so.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* sqrt(x) for a positive normal x: the significand's integer square root,
   one bit at a time (truncated, not rounded). */
__attribute__((enzyme_function_like("sqrt"), noinline)) double
bit_sqrt(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  int e = (int)(bits >> 52) - 1023;
  uint64_t m = (bits & ((1ull << 52) - 1)) | 1ull << 52;
  if (e & 1) {
    m <<= 1;
    e -= 1;
  }
  unsigned __int128 v = (unsigned __int128)m << 52;
  uint64_t r = 0;
  for (int bit = 53; bit >= 0; --bit) {
    uint64_t t = r | 1ull << bit;
    if ((unsigned __int128)t * t <= v)
      r = t;
  }
  uint64_t out = (uint64_t)(e / 2 + 1023) << 52 | (r & ((1ull << 52) - 1));
  double y;
  memcpy(&y, &out, sizeof y);
  return y;
}

/* Calls of it in a function of x: the hypotenuse with 1, scaled by x. */
static double hyp(double x) { return x * bit_sqrt(x * x + 1); }
static double d_hyp(double x) {
  return sqrt(x * x + 1) + x * x / sqrt(x * x + 1);
}
static double root(double x) { return bit_sqrt(x); }
static double d_root(double x) { return 0.5 / sqrt(x); }

static int failures;

static void check(const char *what, double x, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * fabs(want) + 1e-300;
  failures += !ok;
  printf("%-22s x=%-10g %.15g (want %.15g)%s\n", what, x, got, want,
         ok ? "" : "  FAIL");
}

static void run(const char *name, double (*f)(double), double (*df)(double),
                double x) {
  double r = __enzyme_autodiff((void *)f, x);
  double t = __enzyme_fwddiff((void *)f, x, 1.0);
  double h = 1e-6 * x;
  char what[32];
  snprintf(what, sizeof what, "%s reverse", name);
  check(what, x, r, df(x), 1e-14);
  snprintf(what, sizeof what, "%s forward", name);
  check(what, x, t, r, 1e-15);
  snprintf(what, sizeof what, "%s difference", name);
  check(what, x, r, (f(x + h) - f(x - h)) / (2 * h), 1e-6);
}

int main(void) {
  const double xs[] = {1e-300, 0.3, 2.0, 7.25, 1e100};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
    check("value", xs[i], bit_sqrt(xs[i]), sqrt(xs[i]), 1e-15);
    run("sqrt", root, d_root, xs[i]);
    if (xs[i] < 1e100)
      run("x sqrt(x^2 + 1)", hyp, d_hyp, xs[i]);
  }
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
