/* Reverse mode of functions that call a function in a loop whose body
 * always runs once (a do-while, a constant trip count): the callee's
 * augmented and reverse sweeps are inlined into the combined gradient,
 * where what they record once per call went into one stack slot, so that
 * every iteration's reverse read the last iteration's values (its
 * arguments, the old value it overwrote, the branch it took): a wrong
 * gradient without an error at -O1 and up until 2026-12-06 (found on
 * miniWeather, where a step alternates its direction: there it crashed).
 * Checked against central differences, analytic values and forward mode. */
#include "check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static void g(double *x, double c) {
  x[0] = sin(c * x[0]);
}

/* The callee's argument and the value it overwrites, per iteration. */
static double do_while(double *x, int n) {
  int i = 0;
  do {
    g(x, 0.5 + i);
  } while (++i < n);
  return x[0];
}

/* A callee that takes one branch or the other by a global it flips, as
 * miniWeather's perform_timestep does (x first, then z; then z, x). */
int direction = 1;
__attribute__((noinline)) static void a(double *x) { x[0] = sin(x[0]) + 0.5 * x[1]; }
__attribute__((noinline)) static void b(double *x) { x[1] = x[1] * x[0]; }
__attribute__((noinline)) static void step(double *x) {
  if (direction) {
    a(x);
    b(x);
  } else {
    b(x);
    a(x);
  }
  direction = !direction;
}
static double flipping(double *x, int n) {
  direction = 1;
  for (int k = 0; k < 3; ++k) /* (constant trip count: not unrolled below) */
    step(x);
  return x[0] + 2 * x[1] + 0 * n;
}

typedef double (*objective)(double *, int);

static double at(objective f, const double *x0, int i, double d) {
  double x[2] = {x0[0], x0[1]};
  x[i] += d;
  return f(x, 3);
}

static void check(objective f, const char *name) {
  double x0[2] = {0.9, 1.3}, x[2], dx[2] = {0, 0}, h = 1e-6;
  x[0] = x0[0];
  x[1] = x0[1];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 3);
  for (int i = 0; i < 2; ++i) {
    double fd = (at(f, x0, i, h) - at(f, x0, i, -h)) / (2 * h);
    if (fabs(dx[i] - fd) > 1e-6 * (1 + fabs(fd)))
      printf("%s: d/dx[%d]\n", name, i);
    CHECK_CLOSE(dx[i], fd, 1e-6);
    double t[2] = {x0[0], x0[1]}, v[2] = {i == 0, i == 1};
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, t, v, enzyme_const,
                                 3),
                dx[i], 1e-12);
  }
}

int main(void) {
  check(do_while, "do_while");
  check(flipping, "flipping");
  /* Analytic: x3 = sin(2.5 sin(1.5 sin(0.5 x0))). */
  double x[2] = {0.9, 0}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)do_while, enzyme_dup, x, dx, enzyme_const, 3);
  double u1 = sin(0.5 * 0.9), u2 = sin(1.5 * u1);
  double want = cos(2.5 * u2) * 2.5 * cos(1.5 * u1) * 1.5 * cos(0.45) * 0.5;
  CHECK_CLOSE(dx[0], want, 1e-12);
  return check_finish();
}
