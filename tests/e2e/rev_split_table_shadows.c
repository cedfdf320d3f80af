/* A table of constants whose address the differentiated code passes to a
 * function (so it has a shadow, where a gradient's adjoints of its reads
 * collect), differentiated in split mode (__enzyme_augmentfwd, then
 * __enzyme_reverse): the reverse sweep takes the shadow's address from
 * the augmented sweep's records, and until 2026-12-06 the zeroing after
 * the call missed it; a forward derivative after it read the table's
 * adjoints as tangents (5.3125 for 5). Also a static the function stores
 * after reading it, called twice in one derivative. Analytic values and
 * central differences, split, combined and forward calls in turn. */
#include "rev_check.h"

void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

/* c0 x + c1 x^2: c0 + 2 c1 x */
__attribute__((noinline)) double poly(double x, const double *c) {
  return c[0] * x + c[1] * x * x;
}
static double table[2] = {2, 3};
__attribute__((noinline)) double inner(double x) {
  return poly(x, table);
}
static double outer(double x) { return inner(x) + inner(2 * x); }
static double outer_exact(double x) {
  return table[0] + 2 * table[1] * x + 2 * (table[0] + 4 * table[1] * x);
}

/* s(x) + s(2 x), s(x) = (x - prev)^2: 2 (x - prev) + 2 x */
static double prev;
__attribute__((noinline)) double step(double x) {
  double r = x - prev;
  prev = x;
  return r * r;
}
static double steps(double x) { return step(x) + step(2 * x); }

static double central(double (*f)(double), double x, double prev0) {
  double h = 1e-6;
  prev = prev0;
  double up = f(x + h);
  prev = prev0;
  double down = f(x - h);
  return (up - down) / (2 * h);
}

static double split(void *f, double x) {
  void *t = __enzyme_augmentfwd(f, x);
  return __enzyme_reverse(f, x, 1.0, t);
}

int main(void) {
  for (int round = 0; round < 2; ++round) {
    double x = 0.5 + round;
    double want = outer_exact(x);
    CHECK_CLOSE(central(outer, x, 0), want, REV_TOL_FD);
    CHECK_CLOSE(split((void *)outer, x), want, REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)outer, x, 1.0), want, REV_TOL_EXACT);
    CHECK_CLOSE(split((void *)inner, x), 2 + 6 * x, REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)inner, x, 1.0), 2 + 6 * x,
                REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_autodiff((void *)outer, x), want, REV_TOL_EXACT);
    CHECK_CLOSE(split((void *)outer, x), want, REV_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)outer, x, 1.0), want, REV_TOL_EXACT);

    double prev0 = 1 - round, want_steps = 2 * (x - prev0) + 2 * x;
    CHECK_CLOSE(central(steps, x, prev0), want_steps, REV_TOL_FD);
    prev = prev0;
    CHECK_CLOSE(split((void *)steps, x), want_steps, REV_TOL_EXACT);
    prev = prev0;
    CHECK_CLOSE(__enzyme_fwddiff((void *)steps, x, 1.0), want_steps,
                REV_TOL_EXACT);
    prev = prev0;
    CHECK_CLOSE(__enzyme_autodiff((void *)steps, x), want_steps,
                REV_TOL_EXACT);
    prev = prev0;
    CHECK_CLOSE(split((void *)steps, x), want_steps, REV_TOL_EXACT);
  }
  return check_finish();
}
