// Tables a file passes to a function of another file (`poly(x, C)`), whose
// derivatives are made at link time: their shadows, where the table's
// address passed to a call gives it one, are zeroed after each derivative
// call, by a function the link step makes with each derivative and the
// request calls, and not between the nested calls of one derivative.
// Until 2026-12-06 the link step zeroed them after each call of the
// derivative itself: a reverse sweep, which takes the shadow's address
// from its records, zeroed nothing, and a forward derivative after a
// gradient took the table's adjoints for tangents (5.3125 for 5); and a
// static the caller's derivative reads after storing it (`r = x - prev;
// prev = x`, called twice) lost its tangent and adjoint between the calls
// (1 for 0). Tables: static in another file (C), external in another file
// (D), static in the requesting file (E); forward, reverse and split
// calls in either order, repeated. poly(x, c) = c0 x + c1 x^2, poly' =
// c0 + 2 c1 x: 5 for C = {2, 3}, D = {1, 4} at x = 0.5, 12 for E = {5, 7};
// s(x) + s(2 x) with s(x) = (x - prev)^2, prev = 1 before: 2 (x - 1) + 2 x
// = 0. Each derivative is also checked against central differences.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c poly.c tables.c main.c && %adcc poly.o tables.o main.o -o prog0 -lm && ./prog0 | FileCheck %s
// RUN: %adcc -O1 -c poly.c tables.c main.c && %adcc poly.o tables.o main.o -o prog1 -lm && ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c poly.c tables.c main.c && %adcc poly.o tables.o main.o -o prog2 -lm && ./prog2 | FileCheck %s
// RUN: %adcc -O3 -c poly.c tables.c main.c && %adcc poly.o tables.o main.o -o prog3 -lm && ./prog3 | FileCheck %s
// CHECK: static: rev 5 fwd 5 fwd 5 rev 5 split 5 fwd 5{{$}}
// CHECK-NEXT: static, its function: split 5 fwd 5 rev 5 fwd 5{{$}}
// CHECK-NEXT: external: fwd 5 rev 5 rev 5 fwd 5 split 5 fwd 5{{$}}
// CHECK-NEXT: same file: rev 12 fwd 12 split 12 fwd 12 rev 12{{$}}
// CHECK-NEXT: state: fwd 0 rev 0 fwd 0 split 0 fwd 0 one -1{{$}}
// CHECK-NEXT: differences agree{{$}}

//--- poly.c
double poly(double x, const double *c) { return c[0] * x + c[1] * x * x; }

//--- tables.c
double poly(double x, const double *c);
static double C[2] = {2, 3};
double D[2] = {1, 4};
static double prev = 1;
double g(double x) { return poly(x, C); }
double h(double x) { return poly(x, D); }
double s(double x) {
  double r = x - prev;
  prev = x;
  return r * r;
}
void reset(void) { prev = 1; }

//--- main.c
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
double poly(double x, const double *c);
double g(double x);
double h(double x);
double s(double x);
void reset(void);
static double E[2] = {5, 7};
static double k(double x) { return poly(x, E); }
static double wg(double x) { return g(x); }
static double wh(double x) { return h(x); }
static double ws(double x) { return s(x) + s(2 * x); }
static int Bad;

/* A derivative checked against central differences. */
static double checked(double d, double (*f)(double), double x, int state) {
  double e = 1e-5;
  if (state)
    reset();
  double up = f(x + e);
  if (state)
    reset();
  double down = f(x - e);
  if (fabs(d - (up - down) / (2 * e)) > 1e-6) {
    printf("differences disagree: %g and %g\n", d, (up - down) / (2 * e));
    Bad = 1;
  }
  return d;
}
#define REV(f, st) checked(__enzyme_autodiff((void *)f, x), f, x, st)
#define FWD(f, st) checked(__enzyme_fwddiff((void *)f, x, 1.0), f, x, st)
static double split(double (*f)(double), double x, int st) {
  void *t = __enzyme_augmentfwd((void *)f, x);
  return checked(__enzyme_reverse((void *)f, x, 1.0, t), f, x, st);
}

int main(void) {
  double x = 0.5;
  double a = REV(wg, 0), b = FWD(g, 0), c = FWD(g, 0), d = REV(wg, 0);
  double e = split(wg, x, 0), f = FWD(g, 0);
  printf("static: rev %g fwd %g fwd %g rev %g split %g fwd %g\n", a, b, c, d,
         e, f);
  a = split(g, x, 0), b = FWD(g, 0), c = REV(g, 0), d = FWD(wg, 0);
  printf("static, its function: split %g fwd %g rev %g fwd %g\n", a, b, c, d);
  a = FWD(h, 0), b = REV(wh, 0), c = REV(wh, 0), d = FWD(h, 0);
  e = split(wh, x, 0), f = FWD(wh, 0);
  printf("external: fwd %g rev %g rev %g fwd %g split %g fwd %g\n", a, b, c,
         d, e, f);
  a = REV(k, 0), b = FWD(k, 0), c = split(k, x, 0), d = FWD(k, 0);
  e = REV(k, 0);
  printf("same file: rev %g fwd %g split %g fwd %g rev %g\n", a, b, c, d, e);
  reset(), a = FWD(ws, 1), reset(), b = REV(ws, 1), reset(), c = FWD(ws, 1);
  reset(), d = split(ws, x, 1), reset(), e = FWD(ws, 1);
  reset(), f = FWD(s, 1);
  printf("state: fwd %g rev %g fwd %g split %g fwd %g one %g\n", a, b, c, d, e,
         f);
  if (!Bad)
    printf("differences agree\n");
  return Bad;
}
