/* Calls through function pointers whose arguments are constants, to
 * functions that read or write a global with a derivative (a table of
 * operations, as interpreters and callback registries keep): the call has
 * a derivative through the global whatever its arguments, as a direct
 * call does. Until 2026-12-06 both modes gave 0 at every level, silently
 * (adfuzz v24's op-table with a global accumulator). Exact values, reverse
 * and forward mode, -O0 to -O3. */
#include "rev_check.h"

static double g[2];
/* reads the global */
__attribute__((noinline)) static double get(double a, double b) {
  return g[0] * a + b;
}
/* writes the global (its result is a constant) */
__attribute__((noinline)) static double put(double a, double b) {
  g[1] += g[0] * a;
  return b;
}
static double plain(double a, double b) { return a * b; }

struct op {
  double (*fn)(double, double);
  double w;
};
static const struct op OPS[3] = {{get, 1.0}, {put, 0.5}, {plain, 2.0}};

/* g[0] = x0 x1; the six steps call get, put, plain, get, put, plain
 * (n = 0) with a = 0.5 + k: acc = (0.5 + 3.5) g0 + consts, g[1] = (1.5 +
 * 4.5) g0; f = 4 g0 + 36 g0^2 + const */
static double ops(const double *x, int n) {
  g[0] = x[0] * x[1];
  g[1] = 0;
  double acc = 0;
  for (int k = 0; k < 6; k++) {
    int c = (k + n) % 3;
    acc += OPS[c].w * OPS[c].fn(0.5 + k, 0.25);
  }
  return acc + g[1] * g[1];
}

/* through a function that is given the pointer (a callback) */
__attribute__((noinline)) static double apply(double (*fp)(double, double),
                                              double a) {
  return fp(a, 0.0);
}
static double (*volatile pick)(double, double) = get;
static double callback(const double *x, int n) {
  g[0] = sin(x[0]) * x[1];
  return apply(pick, 2.0 + n);
}

/* the gradient and the forward-mode columns of F at x against want */
#define CHECK(F, want)                                                         \
  do {                                                                         \
    double xb[2] = {x[0], x[1]}, dx[2] = {0, 0};                               \
    __enzyme_autodiff((void *)F, enzyme_dup, xb, dx, enzyme_const, 0);         \
    for (int i = 0; i < 2; i++) {                                              \
      if (fabs(dx[i] - want[i]) > REV_TOL_EXACT * (1 + fabs(want[i]))) {       \
        rev_fail(__FILE__, __LINE__, #F " reverse", i, dx[i], want[i]);        \
        fails++;                                                               \
      }                                                                        \
      double e[2] = {i == 0, i == 1}, xf[2] = {x[0], x[1]};                    \
      double d =                                                               \
          __enzyme_fwddiff((void *)F, enzyme_dup, xf, e, enzyme_const, 0);     \
      if (fabs(d - want[i]) > REV_TOL_EXACT * (1 + fabs(want[i]))) {           \
        rev_fail(__FILE__, __LINE__, #F " forward", i, d, want[i]);            \
        fails++;                                                               \
      }                                                                        \
    }                                                                          \
  } while (0)

int main(void) {
  int fails = 0;
  const double x[2] = {0.3, -0.7};
  const double g0 = x[0] * x[1];
  const double dops[2] = {(4 + 72 * g0) * x[1], (4 + 72 * g0) * x[0]};
  const double dcb[2] = {2.0 * cos(x[0]) * x[1], 2.0 * sin(x[0])};
  CHECK(ops, dops);
  CHECK(callback, dcb);
  check_failures += fails;
  return check_finish();
}
