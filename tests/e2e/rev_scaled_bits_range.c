// A float given a new exponent in its bits whose source lies far from the
// result's range, as fdlibm's hyperbolic functions write it past
// log(DBL_MAX) (openlibm's __frexp_exp and __ldexp_exp, not their code):
// e = exp(x - 1799 ln 2) ~ 2^-775 is given the exponent of 2^1023, the
// count of what it lost kept in an integer, and the result is scaled back
// by a power of two built from that count in the bits. The derivative of
// the new-exponent value with respect to e is 2^1798, which no double
// holds; with respect to x it is the value itself, ~1e308. Reverse mode
// multiplied the adjoint by 2^1798 first (inf, then NaN through exp's
// partial) until 2026-12-07; now it multiplies the adjoints of e's own
// operands by it, after e's rule: exp's from the library (a math rule), a
// function of this file (its reverse sweep), a product with a small
// constant factor (its partial); and sinh's sign, a copysign whose
// adjoint passes the doubles (its partial 0 in the sign made x's NaN).
// Each against the
// closed form, forward mode and central differences, -O0 to -O3, below
// log(DBL_MAX) too, and with the result scaled down to 2^-1020 times it.
#include <math.h>
#include <stdint.h>
#include <stdio.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef union {
  double value;
  struct {
    uint32_t lsw, msw;
  } parts;
} words;

#define GET_HIGH_WORD(i, d) do { words w_; w_.value = (d); (i) = w_.parts.msw; } while (0)
#define SET_HIGH_WORD(d, v) do { words w_; w_.value = (d); w_.parts.msw = (v); (d) = w_.value; } while (0)
#define INSERT_WORDS(d, h, l) do { words w_; w_.parts.msw = (h); w_.parts.lsw = (l); (d) = w_.value; } while (0)

#define K 1799
#define K_LN2 1246.97177782734161156

/* exp(u) as the square of exp(u / 2): a function of this file. */
__attribute__((noinline)) double own_exp(double u) {
  double h = exp(0.5 * u);
  return h * h;
}

/* e's significand with the exponent of 2^1023; *n counts what e lost. */
#define TOP_EXPONENT(e, n)                                                   \
  do {                                                                       \
    uint32_t hx_;                                                            \
    GET_HIGH_WORD(hx_, e);                                                   \
    *(n) = (int)(hx_ >> 20) - 2046 + K;                                      \
    SET_HIGH_WORD(e, (hx_ & 0xfffff) | (2046u << 20));                       \
  } while (0)

__attribute__((noinline)) static double top_libm(double x, int *n) {
  double e = exp(x - K_LN2);
  TOP_EXPONENT(e, n);
  return e;
}

__attribute__((noinline)) static double top_own(double x, int *n) {
  double e = own_exp(x - K_LN2);
  TOP_EXPONENT(e, n);
  return e;
}

/* e = 2^-900 exp(x - (1799 - 900) ln 2): a product with a small factor. */
__attribute__((noinline)) static double top_product(double x, int *n) {
  double e = 0x1p-900 * exp(x - (K - 900) * 0.6931471805599453);
  TOP_EXPONENT(e, n);
  return e;
}

/* exp(x) 2^k: the top value times 2^(n + k) built in the bits. */
#define SCALED(top)                                                          \
  static double scaled_##top(double x, int k) {                              \
    int n;                                                                   \
    double e = top(x, &n), s;                                                \
    INSERT_WORDS(s, (uint32_t)(0x3ff + n + k) << 20, 0);                     \
    return e * s;                                                            \
  }
SCALED(top_libm)
SCALED(top_own)
SCALED(top_product)

/* sinh and cosh past log(DBL_MAX): exp(x) / 2. */
static double half_libm(double x) { return scaled_top_libm(x, -1); }
static double half_own(double x) { return scaled_top_own(x, -1); }
static double half_product(double x) { return scaled_top_product(x, -1); }
/* And the result scaled down to ~2^3 (the scale 2^-1020; here scaling
   e's adjoint first is the better order). */
static double small_libm(double x) { return scaled_top_libm(x, -1020); }

/* sinh's form: the sign's copysign(0.5, x) times 2 times the value, whose
   adjoint 2r passes the doubles: copysign's partial 0 in its sign made
   it NaN until 2026-12-07. */
__attribute__((noinline)) static double ldexp_half(double x) {
  return scaled_top_own(x, -1);
}
static double sinh_form(double x) {
  return copysign(0.5, x) * 2.0 * ldexp_half(fabs(x));
}

static int failures;

static void check(const char *name, double (*f)(double), double x,
                  double want) {
  double r = __enzyme_autodiff((void *)f, x);
  double t = __enzyme_fwddiff((void *)f, x, 1.0);
  double h = 1e-8 * x;
  double diff = (f(x + h) - f(x - h)) / (2 * h);
  int ok = fabs(r - want) <= 1e-12 * want && fabs(t - want) <= 1e-12 * want &&
           fabs(diff - want) <= 1e-6 * want;
  failures += !ok;
  printf("%-12s x=%-6g reverse %.17g forward %.17g difference %.17g, "
         "expected %.17g%s\n",
         name, x, r, t, diff, want, ok ? "" : "  FAIL");
}

int main(void) {
  /* (Past log(DBL_MAX) = 709.78 and below it; exp(x - 1799 ln 2) is
     normal down to x = 539.) */
  const double xs[] = {709.9, 710.3, 700.0, 600.0};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
    double x = xs[i];
    /* exp(x) / 2 without overflow: exp(x - 1) e / 2. */
    double want = exp(x - 1) * (M_E / 2);
    check("libm exp", half_libm, x, want);
    check("own exp", half_own, x, want);
    check("product", half_product, x, want);
    check("sinh form", sinh_form, x, want);
    /* (2^(n - 1020) is normal for n >= -2: x past 709.78.) */
    if (x > 709.78)
      check("small", small_libm, x, ldexp(exp(x - 1) * (M_E / 2), -1019));
  }
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
