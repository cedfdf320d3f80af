// Reverse over reverse, where the outer derivative calls a function of
// another file between the inner augmented sweep (__enzyme_augmentfwd) and
// the inner reverse sweep that pops its records: the callee's derivative,
// made at link time, must record on the tape of the outer level (its
// caller's, DerivativeKey::TapeLevel), now carried in its name
// (`__adcc_xtu.a1.110t1...`). Without it the two files disagreed on what
// the name meant: the link step made the derivative on level 0, where its
// records went between the inner sweeps', and the program stopped ("a tape
// that is not the most recent augmented sweep") at every level, while the
// same program in one file was right. The plain gradient of the same
// function (level 0) gets another name.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c callee.c main.c && %adcc main.o callee.o -o prog0 -lm
// RUN: ./prog0 | FileCheck %s
// RUN: llvm-nm main.o | FileCheck %s --check-prefix=NAMES
// RUN: %adcc -O1 -c callee.c main.c && %adcc main.o callee.o -o prog1 -lm
// RUN: ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c callee.c main.c && %adcc main.o callee.o -o prog2 -lm
// RUN: ./prog2 | FileCheck %s
// RUN: %adcc -O3 main.c callee.c -o prog3 -lm && ./prog3 | FileCheck %s
// CHECK: level 0: d/dp0 0.6
// CHECK: level 1: d/dx [[DX:[-0-9.e]+]] want [[DX]] fd [[DX]]
// CHECK: level 1: d/dp0 [[DP:[-0-9.e]+]] want [[DP]]
// NAMES-DAG: U __adcc_xtu.a1.110t1.da.O0.square_sine
// NAMES-DAG: U __adcc_xtu.r1.110t1.da.O0.square_sine
// NAMES-DAG: U __adcc_xtu.g1.011.dc.O0.square_sine

//--- callee.c
#include <math.h>
/* p[0] = sin(p[0] x); r = p[0]^2 */
double square_sine(double *p, double x) {
  p[0] = sin(p[0] * x);
  return p[0] * p[0];
}

//--- main.c
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
double square_sine(double *p, double x);
static const double y = 0.7;
static double cubic(double x, double y) { return x * x * x * y + sin(x * y); }
/* h = sin(p0 x)^2 + d cubic / dx, the latter in split mode, with the call
   of the other file between its sweeps */
static double h(double *p, double x) {
  void *tape = __enzyme_augmentfwd((void *)cubic, x, enzyme_const, y);
  double a = square_sine(p, x);
  double g = __enzyme_reverse((void *)cubic, x, enzyme_const, y, 1.0, tape);
  return a + g;
}
static double h_at(double x) {
  double p[1] = {0.3};
  return h(p, x);
}
static int far(double got, double want, double tol) {
  return fabs(got - want) > tol * fmax(1.0, fabs(want));
}
int main(void) {
  double x = 0.8, p0 = 0.3, bad = 0;
  /* level 0: the plain gradient, d/dp0 = 2 sin(p0 x) cos(p0 x) x */
  double p[1] = {p0}, dp[1] = {0};
  __enzyme_autodiff((void *)square_sine, enzyme_dup, p, dp, enzyme_const, x);
  double want0 = 2 * sin(p0 * x) * cos(p0 * x) * x;
  printf("level 0: d/dp0 %.6g\n", dp[0] / want0 * 0.6);
  bad += far(dp[0], want0, 1e-12);
  /* level 1: d/dx = 2 sin cos p0 + 6 x y - y^2 sin(x y) */
  p[0] = p0;
  dp[0] = 0;
  double d = __enzyme_autodiff((void *)h, enzyme_dup, p, dp, x);
  double s = sin(p0 * x), c = cos(p0 * x);
  double want = 2 * s * c * p0 + 6 * x * y - y * y * sin(x * y);
  double eps = 1e-5, fd = (h_at(x + eps) - h_at(x - eps)) / (2 * eps);
  printf("level 1: d/dx %.9f want %.9f fd %.9f\n", d, want, fd);
  printf("level 1: d/dp0 %.9f want %.9f\n", dp[0], 2 * s * c * x);
  bad += far(d, want, 1e-12) + far(fd, want, 1e-7) + far(dp[0], 2 * s * c * x, 1e-12);
  return bad != 0;
}
