// Structs of pointers and numbers returned by value from a function of
// another file ({ptr, double} in registers, {int, double, ptr} through
// memory), whose augmented and reverse sweeps are made at link time: the
// gradient in reverse mode against central differences, forward mode
// against reverse.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c lib.c -o lib0.o && %adcc -O0 main.c lib0.o -lm -o prog0 && ./prog0 | FileCheck %s
// RUN: %adcc -O2 -c lib.c -o lib2.o && %adcc -O2 main.c lib2.o -lm -o prog2 && ./prog2 | FileCheck %s
// CHECK: ok

//--- lib.h
struct owned {
  double *a;
  double r;
};
struct tagged {
  int n;
  double r;
  const double *p;
};
struct owned squares(const double *x, int n);
struct tagged tag(const double *x, int n);

//--- lib.c
#include "lib.h"
#include <stdlib.h>
struct owned squares(const double *x, int n) {
  struct owned s;
  s.a = malloc(n * sizeof(double));
  s.r = 0;
  for (int i = 0; i < n; ++i) {
    s.a[i] = x[i] * x[i];
    s.r += x[i];
  }
  return s;
}
struct tagged tag(const double *x, int n) {
  struct tagged t = {n - 1, x[n - 1] * x[0], x + 1};
  return t;
}

//--- main.c
#include "lib.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double f(const double *x) {
  struct owned o = squares(x, 3);
  double y = o.a[1] * o.r + o.a[2];
  free(o.a);
  struct tagged t = tag(x, 3);
  return y + t.r * t.p[t.n - 1];
}
int main(void) {
  double x[3] = {0.7, 1.3, 0.4}, g[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  int bad = 0;
  for (int i = 0; i < 3; ++i) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    xp[i] += 1e-6;
    xm[i] -= 1e-6;
    double fd = (f(xp) - f(xm)) / 2e-6;
    double e[3] = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, e);
    if (fabs(g[i] - fd) > 1e-6 || fabs(t - g[i]) > 1e-12) {
      printf("FAIL %d: %g %g %g\n", i, g[i], fd, t);
      bad = 1;
    }
  }
  puts(bad ? "failed" : "ok");
  return bad;
}
