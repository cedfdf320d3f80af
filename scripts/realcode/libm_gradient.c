/* Derivatives of math library functions compiled from their C sources:
 * openlibm (github.com/JuliaMath/openlibm, FreeBSD's msun from Sun's
 * fdlibm: the bits of doubles read and written through unions,
 * GET_HIGH_WORD/INSERT_WORDS, range reduction by integer exponent
 * arithmetic, sqrt bit by bit) and Cephes (Moshier's library: polynomial
 * tables, frexp/ldexp/floor written on the words of a double). libm.sh
 * compiles their files unchanged, each name given a prefix (olm_, cph_) so
 * that the derivatives differentiate their bodies, not glibc's functions
 * (whose derivatives adcc takes from its rule table).
 *
 * Every function is differentiated by __enzyme_autodiff and
 * __enzyme_fwddiff at points that take each branch of its code (the
 * reductions, the polynomial ranges, the asymptotic forms) and checked
 * against the analytic derivative (exp' = exp, ...; computed with glibc),
 * against central differences, and forward against reverse. Run by
 * libm.sh (with -DLIBM_CEPHES when Cephes is given). */
#include <adcc_runtime.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

double olm_exp(double), olm_log(double), olm_sin(double), olm_cos(double);
double olm_pow(double, double), olm_erf(double), olm_erfc(double);
double olm_lgamma_r(double, int *), olm_expm1(double), olm_log1p(double);
double olm_sqrt(double), olm_tanh(double), olm_fabs(double);
double olm_floor(double), olm_scalbn(double, int), olm_copysign(double,
                                                                double);
double olm_frexp(double, int *);
double olm_tan(double), olm_atan(double), olm_atan2(double, double);
double olm_asin(double), olm_acos(double), olm_sinh(double);
double olm_cosh(double), olm_cbrt(double), olm_hypot(double, double);

/* openlibm's sqrt computes its result bit by bit on the integer words:
   no derivative adcc can follow (an error). Marked as computing sqrt, as
   a user would mark it, calls of it take sqrt's rule (the case
   olm_sqrt_marked, built only on its own: the mark applies to every call
   of olm_sqrt in the program). */
#ifdef LIBM_ONLY_olm_sqrt_marked
__attribute__((enzyme_function_like("sqrt"))) double olm_sqrt(double);
#endif

/* The objectives: one double in, one double out. */
#define WRAP(name, expr)                                                      \
  static double name(double x) { return expr; }
WRAP(o_exp, olm_exp(x))
WRAP(o_log, olm_log(x))
WRAP(o_sin, olm_sin(x))
WRAP(o_cos, olm_cos(x))
WRAP(o_pow_x, olm_pow(x, 2.75))
WRAP(o_pow_y, olm_pow(1.7, x))
WRAP(o_pow_xx, olm_pow(x, x))
WRAP(o_erf, olm_erf(x))
WRAP(o_erfc, olm_erfc(x))
WRAP(o_expm1, olm_expm1(x))
WRAP(o_log1p, olm_log1p(x))
WRAP(o_sqrt, olm_sqrt(x))
WRAP(o_tanh, olm_tanh(x))
WRAP(o_fabs, olm_fabs(x))
WRAP(o_floor, olm_floor(x))
WRAP(o_scalbn, olm_scalbn(x, 5))
WRAP(o_copysign, olm_copysign(x, -2.0))
WRAP(o_tan, olm_tan(x))
WRAP(o_atan, olm_atan(x))
WRAP(o_atan2_y, olm_atan2(x, 0.7))
WRAP(o_atan2_x, olm_atan2(-1.3, x))
WRAP(o_asin, olm_asin(x))
WRAP(o_acos, olm_acos(x))
WRAP(o_sinh, olm_sinh(x))
WRAP(o_cosh, olm_cosh(x))
WRAP(o_cbrt, olm_cbrt(x))
WRAP(o_hypot, olm_hypot(x, 0.6))
WRAP(o_hypot_big, olm_hypot(x, -2.5e300))
WRAP(o_hypot_small, olm_hypot(3e-300, x))
WRAP(o_hypot_sub, olm_hypot(x, 2e-310))
static double o_lgamma(double x) {
  int sign;
  return olm_lgamma_r(x, &sign);
}
static double o_frexp(double x) {
  int e;
  return olm_frexp(x, &e);
}
#ifdef LIBM_CEPHES
double cph_exp(double), cph_log(double), cph_sin(double), cph_cos(double);
double cph_sqrt(double), cph_pow(double, double), cph_gamma(double);
double cph_lgam(double), cph_incbet(double, double, double);
double cph_ndtr(double), cph_erf(double), cph_erfc(double);
double cph_j0(double), cph_y0(double), cph_fabs(double);
double cph_frexp(double, int *), cph_ldexp(double, int);

WRAP(c_exp, cph_exp(x))
WRAP(c_log, cph_log(x))
WRAP(c_sin, cph_sin(x))
WRAP(c_cos, cph_cos(x))
WRAP(c_sqrt, cph_sqrt(x))
WRAP(c_pow_x, cph_pow(x, 2.75))
WRAP(c_pow_y, cph_pow(1.7, x))
WRAP(c_gamma, cph_gamma(x))
WRAP(c_lgam, cph_lgam(x))
WRAP(c_incbet_x, cph_incbet(2.5, 3.5, x))
WRAP(c_incbet_a, cph_incbet(x, 3.5, 0.4))
WRAP(c_incbet_b, cph_incbet(2.5, x, 0.4))
WRAP(c_ndtr, cph_ndtr(x))
WRAP(c_erf, cph_erf(x))
WRAP(c_erfc, cph_erfc(x))
WRAP(c_j0, cph_j0(x))
WRAP(c_y0, cph_y0(x))
WRAP(c_fabs, cph_fabs(x))
WRAP(c_ldexp, cph_ldexp(x, -3))
WRAP(c_ldexp_up, cph_ldexp(x, 40))
WRAP(c_ldexp_down, cph_ldexp(x, -40))
static double c_frexp(double x) {
  int e;
  return cph_frexp(x, &e);
}
#endif

/* Analytic derivatives (glibc's functions; NAN where there is no closed
   form: then differences only). */
static double digamma(double x) {
  if (x <= 0) /* reflection: psi(1 - x) - psi(x) = pi cot(pi x) */
    return digamma(1 - x) - M_PI / tan(M_PI * x);
  double s = 0;
  for (; x < 12; x += 1)
    s -= 1 / x;
  double r = 1 / (x * x);
  return s + log(x) - 0.5 / x -
         r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r / 240)));
}
static double d_exp(double x) { return exp(x); }
static double d_log(double x) { return 1 / x; }
static double d_sin(double x) { return cos(x); }
static double d_cos(double x) { return -sin(x); }
static double d_pow_x(double x) { return 2.75 * pow(x, 1.75); }
static double d_pow_y(double x) { return pow(1.7, x) * log(1.7); }
static double d_pow_xx(double x) { return pow(x, x) * (log(x) + 1); }
static double d_erf(double x) { return 2 / sqrt(M_PI) * exp(-x * x); }
static double d_erfc(double x) { return -d_erf(x); }
static double d_lgamma(double x) { return digamma(x); }
static double d_expm1(double x) { return exp(x); }
static double d_log1p(double x) { return 1 / (1 + x); }
static double d_sqrt(double x) { return 0.5 / sqrt(x); }
static double d_tanh(double x) { return 1 - tanh(x) * tanh(x); }
static double d_fabs(double x) { return x < 0 ? -1 : 1; }
static double d_tan(double x) { return 1 / (cos(x) * cos(x)); }
static double d_atan(double x) { return 1 / (1 + x * x); }
static double d_atan2_y(double x) { return 0.7 / (x * x + 0.49); }
static double d_atan2_x(double x) { return 1.3 / (x * x + 1.69); }
static double d_asin(double x) { return 1 / sqrt(1 - x * x); }
static double d_acos(double x) { return -1 / sqrt(1 - x * x); }
static double d_sinh(double x) { return cosh(x); }
static double d_cosh(double x) { return sinh(x); }
static double d_cbrt(double x) { return 1 / (3 * cbrt(x) * cbrt(x)); }
static double d_hypot(double x) { return x / hypot(x, 0.6); }
static double d_hypot_big(double x) { return x / hypot(x, 2.5e300); }
static double d_hypot_small(double x) { return x / hypot(x, 3e-300); }
static double d_hypot_sub(double x) { return x / hypot(x, 2e-310); }
static double d_floor(double x) { return 0 * x; }
static double d_scalbn(double x) { return 32 + 0 * x; }
static double d_copysign(double x) { return x < 0 ? 1 : -1; }
static double d_frexp(double x) {
  int e;
  frexp(x, &e);
  return ldexp(1, -e);
}
static double d_gamma(double x) { return tgamma(x) * digamma(x); }
static double d_incbet_x(double x) {
  double a = 2.5, b = 3.5;
  return pow(x, a - 1) * pow(1 - x, b - 1) /
         exp(lgamma(a) + lgamma(b) - lgamma(a + b));
}
static double d_none(double x) { return NAN + 0 * x; }
static double d_ndtr(double x) { return exp(-x * x / 2) / sqrt(2 * M_PI); }
static double d_j0(double x) { return -j1(x); }
static double d_y0(double x) { return -y1(x); }
static double d_ldexp(double x) { return 0.125 + 0 * x; }
static double d_ldexp_up(double x) { return 0x1p40 + 0 * x; }
static double d_ldexp_down(double x) { return 0x1p-40 + 0 * x; }

static int failures, checks;

static int near(double got, double want, double tol, double noise) {
  if (isnan(want))
    return 1;
  return fabs(got - want) <= tol * fabs(want) + noise;
}

/* Checks reverse-mode r and forward-mode t of f at x against the analytic
   derivative and a central difference. */
static void check(const char *name, double (*f)(double), double (*df)(double),
                  double x, double r, double t) {
  double want = df(x);
  double h = x == 0 ? 1e-6 : fmin(1e-6 * fabs(x), 1e-4);
  /* (A relative step where that one is lost in x's rounding: x ~ 1e30.) */
  if (x + h == x)
    h = 1e-6 * fabs(x);
  double up = x + h, down = x - h;
  double fu = f(up), fd = f(down);
  double diff = up > down ? (fu - fd) / (up - down) : NAN;
  /* Rounding in f's values divided by the step. */
  double noise = (8 * DBL_EPSILON * (fabs(fu) + fabs(fd)) + 2 * DBL_TRUE_MIN) /
                 (up - down);
  const char *why = "";
  if (!(r == t || fabs(r - t) <= 1e-12 * fabs(r)))
    why = "  FAIL (forward differs from reverse)";
  else if (!near(r, want, 1e-9, 1e-15 + 1e-12 * fabs(f(x))))
    why = "  FAIL (analytic)";
  else if (!near(r, diff, 1e-6, noise))
    why = "  FAIL (central difference)";
  ++checks;
  failures += *why != 0;
  printf("%-10s x=%-12.6g reverse %-22.15g forward %-22.15g analytic "
         "%-22.15g difference %.10g%s\n",
         name, x, r, t, want, diff, why);
}

/* Points on a path without a derivative (sin's and cos's reduction of
   |x| >= 2^20 pi/2 by __kernel_rem_pio2, which cuts the argument into
   integer pieces): each mode's derivative must stop the program with
   adcc's message, never return a number. Each run in a child process. */
static void stopped(const char *message) {
  _exit(strstr(message, "reached a path without one") ? 3 : 4);
}

static int stops;

static void check_stop(const char *name, double (*f)(double), double x,
                       int forward) {
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    adcc_set_error_handler(stopped);
    volatile double d = forward ? __enzyme_fwddiff((void *)f, x, 1.0)
                                : __enzyme_autodiff((void *)f, x);
    (void)d;
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  int ok = WIFEXITED(status) && WEXITSTATUS(status) == 3;
  ++checks;
  failures += !ok;
  stops += ok;
  printf("%-10s x=%-12.6g %s %s\n", name, x, forward ? "forward" : "reverse",
         ok ? "stopped (no derivative on this path)"
            : "  FAIL (a derivative returned, or another error)");
}

#define STOPS(name, f, ...)                                                   \
  do {                                                                        \
    const double xs[] = {__VA_ARGS__};                                        \
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i) {                 \
      check_stop(#name, f, xs[i], 0);                                         \
      check_stop(#name, f, xs[i], 1);                                         \
    }                                                                         \
  } while (0)

#define CASE(name, f, df, ...)                                                \
  do {                                                                        \
    const double xs[] = {__VA_ARGS__};                                        \
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i) {                 \
      double r = __enzyme_autodiff((void *)f, xs[i]);                         \
      double t = __enzyme_fwddiff((void *)f, xs[i], 1.0);                     \
      check(name, f, df, xs[i], r, t);                                        \
    }                                                                         \
  } while (0)

/* Each case is compiled only where libm.sh selects it (-DLIBM_ONLY
   -DLIBM_ONLY_<case>), so that one that adcc refuses leaves the others
   checked; all of them (but olm_sqrt_marked) without -DLIBM_ONLY. */
#ifndef LIBM_ONLY
#define LIBM_ALL 1
#endif
#define RUN(id, f, df, ...) CASE(#id, f, df, __VA_ARGS__)

int main(void) {
  /* openlibm: exp's three reductions (none, |x| < 1.5 ln 2, k from x/ln 2),
     the tiny argument, subnormal results. */
#if LIBM_ALL || LIBM_ONLY_olm_exp
  RUN(olm_exp, o_exp, d_exp, -740, -30, -2.3, -0.3, 1e-9, 0.7, 3.1, 700);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_log
  RUN(olm_log, o_log, d_log, 1e-308, 1e-300, 0.3, 0.9, 1.0000001, 1.5, 10,
      1e10);
#endif
  /* sin and cos: |x| <= pi/4, the reductions by n pi/2 up to 9pi/4, the
     medium one (n from 0x1.8p52, up to 2^20 pi/2 ~ 1.6e6); beyond, the
     derivatives stop (__kernel_rem_pio2). */
#if LIBM_ALL || LIBM_ONLY_olm_sin
  RUN(olm_sin, o_sin, d_sin, 1e-9, 0.1, 0.7, 2.0, -4.0, 6.5, 100.0, 3e5,
      1.6e6);
  STOPS(olm_sin, o_sin, 1e7, -1e22);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_cos
  RUN(olm_cos, o_cos, d_cos, 0.1, 0.7, 2.0, -4.0, 6.5, 100.0, 3e5, 1.6e6);
  STOPS(olm_cos, o_cos, 1e7);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_pow_x
  RUN(olm_pow_x, o_pow_x, d_pow_x, 1e-5, 0.3, 1.2, 7.5, 1e30);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_pow_y
  RUN(olm_pow_y, o_pow_y, d_pow_y, -40, -0.3, 0.01, 2.5, 100);
#endif
  /* (Not at y = 0.5, 1, 2, 3, 4, nor x = 1: openlibm returns x*x*x for
     y == 3, ..., on a path without y, whose derivative in y is 0.) */
#if LIBM_ALL || LIBM_ONLY_olm_pow_xx
  RUN(olm_pow_xx, o_pow_xx, d_pow_xx, 0.2, 1.5, 3.3);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_erf
  RUN(olm_erf, o_erf, d_erf, 1e-10, 0.3, 0.9, 1.7, 3.0, -2.2);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_erfc
  RUN(olm_erfc, o_erfc, d_erfc, 0.3, 0.9, 1.7, 3.0, 10.0, -2.2);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_lgamma
  RUN(olm_lgamma, o_lgamma, d_lgamma, 1e-5, 0.3, 0.95, 1.3, 2.4, 3.7, 9.0,
      1e10, -0.4, -2.6);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_expm1
  RUN(olm_expm1, o_expm1, d_expm1, -40, -0.2, 1e-12, 0.2, 0.6, 4.0, 60);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_log1p
  RUN(olm_log1p, o_log1p, d_log1p, -0.7, -0.2, 1e-12, 0.3, 0.7, 5.0, 1e20);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_sqrt
  RUN(olm_sqrt, o_sqrt, d_sqrt, 1e-308, 0.3, 2.0, 1e100);
#endif
#if LIBM_ONLY_olm_sqrt_marked
  RUN(olm_sqrt_marked, o_sqrt, d_sqrt, 1e-308, 0.3, 2.0, 1e100);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_tanh
  RUN(olm_tanh, o_tanh, d_tanh, 1e-10, 0.3, -0.8, 3.0, 19.0);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_fabs
  RUN(olm_fabs, o_fabs, d_fabs, -2.5, 0.75);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_floor
  RUN(olm_floor, o_floor, d_floor, -2.5, 0.75, 1e10 + 0.5);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_scalbn
  RUN(olm_scalbn, o_scalbn, d_scalbn, -2.5, 0.75, 1e-310);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_copysign
  RUN(olm_copysign, o_copysign, d_copysign, -2.5, 0.75);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_frexp
  RUN(olm_frexp, o_frexp, d_frexp, -2.5, 0.75, 1e-308, 3e10);
#endif

  /* tan's reductions as sin's; atan's five ranges; atan2 in each quadrant
     in y and in x; asin and acos below 0.5, above, and near 1; sinh and
     cosh through expm1, exp and exp(x/2)^2 (__ldexp_exp); cbrt of normal
     and subnormal x (its exponent divided by 3 in the bits); hypot's
     scalings of large and small arguments. */
#if LIBM_ALL || LIBM_ONLY_olm_tan
  RUN(olm_tan, o_tan, d_tan, 1e-9, 0.3, 0.7, 2.0, -4.0, 100.0, 3e5);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_atan
  RUN(olm_atan, o_atan, d_atan, 1e-10, 0.3, 0.6, 1.1, 2.0, -3.0, 1e10);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_atan2
  RUN(olm_atan2_y, o_atan2_y, d_atan2_y, -2.0, -0.1, 0.3, 5.0, 1e-20);
  RUN(olm_atan2_x, o_atan2_x, d_atan2_x, -2.0, -0.1, 0.3, 5.0, 1e20);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_asin
  RUN(olm_asin, o_asin, d_asin, 1e-9, 0.3, -0.6, 0.9, 0.999);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_acos
  RUN(olm_acos, o_acos, d_acos, 1e-9, 0.3, -0.6, 0.9, -0.999);
#endif
  /* (sinh's and cosh's last range, 709.9 and -710.3, where __ldexp_exp
     gives exp's value the exponent of 2^1023 in its bits, since
     2026-12-07. cbrt of a subnormal, 1e-310 and -2.5e-315, where x is
     scaled by 2^54 and its exponent divided by 3 in the bits, since
     2026-12-07: reverse mode gave NaN there (a zero adjoint times 1 / x)
     and forward mode inf (the Newton step's tangent, 1 / (3x), passes the
     doubles).) */
#if LIBM_ALL || LIBM_ONLY_olm_sinh
  RUN(olm_sinh, o_sinh, d_sinh, 1e-10, 0.3, -2.0, 15.0, 30.0, 700.0, 709.9,
      -710.3);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_cosh
  RUN(olm_cosh, o_cosh, d_cosh, 1e-10, 0.3, -2.0, 15.0, 30.0, 700.0, 709.9,
      -710.3);
#endif
#if LIBM_ALL || LIBM_ONLY_olm_cbrt
  RUN(olm_cbrt, o_cbrt, d_cbrt, 0.3, -8.5, 1e30, 1e-300, 1e-310, -2.5e-315);
#endif
  /* (hypot: x below and above 0.6, both of its formulas; x and y past
     2^500, scaled by 2^-600 in their high words, y as the larger and the
     smaller; y as the smaller number below 2^-500, scaled by 2^600; the
     smaller subnormal, scaled by 2^1022 as a product. Not where one is
     2^60 times the other: openlibm returns a + b there, whose derivative
     in the smaller number is 1, not hypot's. Since 2026-12-07; before, an
     error at every level.) */
#if LIBM_ALL || LIBM_ONLY_olm_hypot
  RUN(olm_hypot, o_hypot, d_hypot, 0.3, 0.5, -2.0, 1e-3, 25.0);
  RUN(olm_hypot_big, o_hypot_big, d_hypot_big, 1e300, -4e300, 3e299);
  RUN(olm_hypot_small, o_hypot_small, d_hypot_small, 1e-300, -5e-301,
      2e-299);
  RUN(olm_hypot_sub, o_hypot_sub, d_hypot_sub, 1e-308, -3e-310, 5e-309);
#endif

#ifdef LIBM_CEPHES
  /* Cephes (its generic configuration, UNK: coefficient tables of doubles;
     floor.c's frexp, ldexp and floor work on 16-bit words always). */
#if LIBM_ALL || LIBM_ONLY_cph_exp
  RUN(cph_exp, c_exp, d_exp, -30, -2.3, -0.3, 0.7, 3.1, 700);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_log
  RUN(cph_log, c_log, d_log, 1e-300, 0.3, 0.9, 1.5, 10, 1e10);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_sin
  RUN(cph_sin, c_sin, d_sin, 1e-9, 0.1, 0.7, 2.0, -4.0, 100.0, 3e5);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_cos
  RUN(cph_cos, c_cos, d_cos, 1e-9, 0.1, 0.7, 2.0, -4.0, 100.0, 3e5);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_sqrt
  RUN(cph_sqrt, c_sqrt, d_sqrt, 0.3, 2.0, 1e100);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_pow_x
  RUN(cph_pow_x, c_pow_x, d_pow_x, 1e-5, 0.3, 1.2, 7.5, 1e30);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_pow_y
  RUN(cph_pow_y, c_pow_y, d_pow_y, -40, -0.3, 0.01, 2.5, 100);
#endif
  /* (Not at integers: Cephes' gamma returns its product z where the
     reduced argument is exactly 2, a path without the polynomial, whose
     derivative is the product's alone (gamma(9): 69264, not 86310.66), as
     openlibm's pow(x, 3) returns x*x*x; incbet calls gamma(a + b).) */
#if LIBM_ALL || LIBM_ONLY_cph_gamma
  RUN(cph_gamma, c_gamma, d_gamma, 0.3, 1.3, 2.4, 3.7, 9.3, 40.0, -0.4,
      -2.6);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_lgam
  RUN(cph_lgam, c_lgam, d_lgamma, 0.3, 1.3, 2.4, 3.7, 9.3, 40.0, -0.4,
      -2.6);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_incbet_x
  RUN(cph_incbet_x, c_incbet_x, d_incbet_x, 0.05, 0.4, 0.8, 0.97);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_incbet_a
  RUN(cph_incbet_a, c_incbet_a, d_none, 0.7, 2.2, 8.7);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_incbet_b
  RUN(cph_incbet_b, c_incbet_b, d_none, 0.7, 3.2, 8.7);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_ndtr
  RUN(cph_ndtr, c_ndtr, d_ndtr, -9.0, -3.0, -0.5, 0.2, 0.8, 4.0);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_erf
  RUN(cph_erf, c_erf, d_erf, 0.3, 0.9, -0.6);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_erfc
  RUN(cph_erfc, c_erfc, d_erfc, 0.3, 1.7, 3.0, 10.0, -2.2);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_j0
  RUN(cph_j0, c_j0, d_j0, 0.5, 2.0, 4.9, 5.5, 30.0);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_y0
  RUN(cph_y0, c_y0, d_y0, 0.5, 2.0, 4.9, 5.5, 30.0);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_fabs
  RUN(cph_fabs, c_fabs, d_fabs, -2.5, 0.75);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_ldexp
  RUN(cph_ldexp, c_ldexp, d_ldexp, -2.5, 0.75, 1e-300, 1e-310, -3e-310);
#endif
  /* (A subnormal x scaled up into the normal range, and a result scaled
     down into the subnormals: ldexp's loop and its last branch.) */
#if LIBM_ALL || LIBM_ONLY_cph_ldexp_up
  RUN(cph_ldexp_up, c_ldexp_up, d_ldexp_up, 1e-310, -3e-310, 2.5, 3e3);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_ldexp_down
  RUN(cph_ldexp_down, c_ldexp_down, d_ldexp_down, 1e-300, -3e-300, 2.5);
#endif
#if LIBM_ALL || LIBM_ONLY_cph_frexp
  RUN(cph_frexp, c_frexp, d_frexp, -2.5, 0.75, 1e-308, 3e10);
#endif
#endif

  printf("%d of %d checks failed (%d of them stops, as expected)\n",
         failures, checks, stops);
  return failures != 0;
}
