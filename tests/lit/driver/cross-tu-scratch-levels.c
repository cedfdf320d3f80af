// Forward over forward through null shadows, where the outer derivative
// calls a function of another file: the callee's derivative, made at link
// time, must use the scratch shadows of the outer level (its caller's,
// DerivativeKey::ScratchLevel), now carried in its name
// (`__adcc_xtu.f1.110s1...`). Without it the link step made it at level 0,
// the inner derivative's, and it read the inner tangent of p[0] (2x) for
// the outer one (4x, the seed being 2): 25.66144 instead of 26.97216 at
// every level, while the same program in one file was right. Two files
// asking one function's derivative at two levels get two names.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c callee.c main.c && %adcc main.o callee.o -o prog0 -lm
// RUN: ./prog0 | FileCheck %s
// RUN: %adcc -O1 -c callee.c main.c && %adcc main.o callee.o -o prog1 -lm
// RUN: ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c callee.c main.c && %adcc main.o callee.o -o prog2 -lm
// RUN: ./prog2 | FileCheck %s
// RUN: %adcc -O3 main.c callee.c -o prog3 -lm && ./prog3 | FileCheck %s
// CHECK: outer 26.97216 want 26.97216 fd 26.97216{{[0-9]*$}}

//--- callee.c
struct S { double *p; double k; };
/* p[1] = p[0] x; r = p[1]^2 */
double product(struct S *s, double x) {
  s->p[1] = s->p[0] * x;
  return s->p[1] * s->p[1];
}

//--- main.c
#include <stdio.h>
#include <math.h>
extern int enzyme_dup;
double __enzyme_fwddiff(void *, ...);
struct S { double *p; double k; };
double product(struct S *s, double x);
/* p[0] = x^2; r = k x^4 */
static double square_twice(struct S *s, double x) {
  s->p[0] = x * x;
  return s->p[0] * s->p[0] * s->k;
}
/* 4 k x^3, leaving p[0] = x^2 */
static double inner_square(struct S *s, double x) {
  struct S ds = {0};
  return __enzyme_fwddiff((void *)square_twice, enzyme_dup, s, &ds, enzyme_dup, x, 1.0);
}
/* h = 4 k x^3 + x^6 */
static double h(struct S *s, double x) { return inner_square(s, x) + product(s, x); }
int main(void) {
  double p[2] = {0}, k = 1.5, x = 0.8;
  struct S s = {p, k}, ds = {0};
  double d = __enzyme_fwddiff((void *)h, enzyme_dup, &s, &ds, enzyme_dup, x, 2.0);
  double want = 2 * (12 * k * x * x + 6 * pow(x, 5));
  double eps = 1e-5, xp = x + eps, xm = x - eps;
  double fd = 2 * (h(&s, xp) - h(&s, xm)) / (2 * eps);
  printf("outer %.12g want %.12g fd %.12g\n", d, want, fd);
  return fabs(d - want) > 1e-9 * fabs(want) || fabs(fd - want) > 1e-6 * fabs(want);
}
