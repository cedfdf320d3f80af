// A cube root written on the words of doubles as fdlibm writes cbrt (not
// its code): a first estimate from the high word's exponent divided by
// three, a subnormal x scaled by 2^54 first; refinements in floating
// point; the estimate truncated by its low word (a step, derivative 0);
// then one step t + t (x/t^2 - t) / (2t + x/t^2), which carries the whole
// derivative. At a subnormal x two things went wrong without an error
// until 2026-12-07 (openlibm's cbrt(1e-310)):
//  - reverse mode gave NaN: the truncated estimate's refinement divides
//    by x, whose adjoint 0 (the truncation's) times 1 / x = inf (x below
//    2^-1024) was NaN; the derivatives of a / b now use a reciprocal of b
//    scaled into range (support/DivisorReciprocal.h);
//  - forward mode gave inf: the last step's quotient has the tangent
//    1 / (3x) ~ 2^1026 at x = 1e-310, which no double holds, though
//    t times it, the result's, is 1.5e206; the tangent is computed again
//    with the seed scaled by 2^-512 and scaled back
//    (forward/ScaledSeeds.h).
// And the same with the estimate rounded as fdlibm's cbrt rounds it, in a
// union, `(bits + 0x80000000) & ~0x3fffffff` (a step too): an error at -O0
// until 2026-12-07 (the carry of the addition was taken to depend on every
// bit below; from -O1 InstCombine masks first, which was followed).
// Each against 1 / (3 cbrt(x)^2), forward against reverse and central
// differences, at normal and subnormal x of both signs, -O0 to -O3.
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef union {
  double value;
  struct {
    uint32_t lo, hi;
  } w;
} words;

#define WORDS_OF(h, l, d) do { words u_; u_.value = (d); (h) = u_.w.hi; (l) = u_.w.lo; } while (0)
#define HIGH_OF(h, d) do { words u_; u_.value = (d); (h) = u_.w.hi; } while (0)
#define FROM_WORDS(d, h, l) do { words u_; u_.w.hi = (h); u_.w.lo = (l); (d) = u_.value; } while (0)
#define CLEAR_LOW(d) do { words u_; u_.value = (d); u_.w.lo = 0; (d) = u_.value; } while (0)

/* e / 3 + 682 and, for x 2^54 scaled, (e - 54) / 3 + 682, in the high
   word's exponent field. */
#define THIRD_BIAS (682u << 20)
#define THIRD_BIAS_SCALED (664u << 20)

/* The first estimate, from the exponent divided by three. */
#define ESTIMATE(t, x)                                                       \
  do {                                                                       \
    uint32_t hx_, lx_, sign_, high_;                                         \
    double s_;                                                               \
    WORDS_OF(hx_, lx_, x);                                                   \
    sign_ = hx_ & 0x80000000u;                                               \
    hx_ ^= sign_;                                                            \
    (void)lx_;                                                               \
    if (hx_ < 0x00100000u) {                                                 \
      FROM_WORDS(s_, 0x43500000u, 0); /* 2^54 */                             \
      s_ *= x;                                                               \
      HIGH_OF(high_, s_);                                                    \
      FROM_WORDS(t, sign_ | ((high_ & 0x7fffffffu) / 3 + THIRD_BIAS_SCALED), \
                 0);                                                         \
    } else {                                                                 \
      FROM_WORDS(t, sign_ | (hx_ / 3 + THIRD_BIAS), 0);                      \
    }                                                                        \
  } while (0)

__attribute__((noinline)) double cube_root(double x) {
  uint32_t hx, lx;
  double t, s, r;
  WORDS_OF(hx, lx, x);
  hx &= 0x7fffffffu;
  if (hx >= 0x7ff00000u || (hx | lx) == 0)
    return x + x;
  ESTIMATE(t, x);
  /* Three refinements of t by t^3 / x, then t truncated to 21 bits. */
  for (int i = 0; i < 3; ++i) {
    r = (t * t) * (t / x);
    t = t * (1 + (1 - r) / 3);
  }
  CLEAR_LOW(t);
  s = t * t;
  r = x / s;
  r = (r - t) / (t + t + r);
  return t + t * r;
}

/* The estimate refined, then rounded to 34 bits in a union. */
__attribute__((noinline)) double cube_root_rounded(double x) {
  uint32_t hx, lx;
  double t, s, r;
  union {
    double value;
    uint64_t bits;
  } u;
  WORDS_OF(hx, lx, x);
  hx &= 0x7fffffffu;
  if (hx >= 0x7ff00000u || (hx | lx) == 0)
    return x + x;
  ESTIMATE(t, x);
  for (int i = 0; i < 3; ++i) {
    r = (t * t) * (t / x);
    t = t * (1 + (1 - r) / 3);
  }
  u.value = t;
  u.bits = (u.bits + 0x80000000u) & 0xffffffffc0000000ull;
  t = u.value;
  s = t * t;
  r = x / s;
  r = (r - t) / (t + t + r);
  return t + t * r;
}

static int failures;

static void check(const char *name, double (*f)(double), double x) {
  double r = __enzyme_autodiff((void *)f, x);
  double t = __enzyme_fwddiff((void *)f, x, 1.0);
  double c = cbrt(x);
  double want = 1 / (3 * c * c);
  double h = 1e-6 * fabs(x), up = x + h, down = x - h;
  double diff = (f(up) - f(down)) / (up - down);
  int ok = fabs(f(x) - c) <= 1e-15 * fabs(c) &&
           fabs(r - want) <= 1e-9 * want && fabs(t - r) <= 1e-12 * want &&
           fabs(diff - want) <= 1e-6 * want;
  failures += !ok;
  printf("%-8s x=%-10g reverse %.17g forward %.17g difference %.17g, "
         "expected %.17g%s\n",
         name, x, r, t, diff, want, ok ? "" : "  FAIL");
}

int main(void) {
  /* Normal; subnormal (below 2^-1024 = 5.6e-309, where 1 / x is inf, and
     above it); the smallest normal. */
  const double xs[] = {2.0,     -27.5,   0.3,     1e300,   1e-300,
                       1e-310,  -1e-310, 2.5e-315, 3e-309, DBL_MIN};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i) {
    check("cleared", cube_root, xs[i]);
    check("rounded", cube_root_rounded, xs[i]);
  }
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
