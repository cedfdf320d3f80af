// A derivative made at link time of a function that calls libm functions
// through pointers read from a table of a file without derivative requests
// (tinyexpr's table of functions: {"sin", sin}, ...). The pointers hold
// libm's own addresses; the dispatch compared them with the wrappers that
// stand for those addresses in modules with derivatives only, and the
// program stopped at the call until 2026-12-07 ("a function pointer called
// in differentiated code points to ..., a function that has no derivative
// in this program"). Derivatives: sin(x) x, exp(x) x, sqrt(x) x at x = 0.7.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c table.c && %adcc -O0 -c main.c
// RUN: %adcc main.o table.o -o prog0 -lm && ./prog0 | FileCheck %s
// RUN: %adcc -O2 -c table.c && %adcc -O2 -c main.c
// RUN: %adcc main.o table.o -o prog2 -lm && ./prog2 | FileCheck %s
// CHECK: 0 gradient ok tangent ok
// CHECK: 1 gradient ok tangent ok
// CHECK: 2 gradient ok tangent ok

//--- table.c
#include <math.h>
typedef double (*fn1)(double);
static const fn1 table[] = {sin, exp, sqrt};
double apply(int k, double x) { return table[k](x) * x; }

//--- main.c
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double apply(int k, double x);
static double f(double *x, int k) { return apply(k, x[0]); }
int main(void) {
  double x = 0.7;
  double want[3] = {cos(x) * x + sin(x), exp(x) * (x + 1),
                    0.5 / sqrt(x) * x + sqrt(x)};
  for (int k = 0; k < 3; ++k) {
    double dx = 0, t = 1;
    __enzyme_autodiff((void *)f, enzyme_dup, &x, &dx, enzyme_const, k);
    double fd = __enzyme_fwddiff((void *)f, enzyme_dup, &x, &t, enzyme_const, k);
    printf("%d gradient %s tangent %s\n", k,
           fabs(dx - want[k]) < 1e-12 ? "ok" : "wrong",
           fabs(fd - want[k]) < 1e-12 ? "ok" : "wrong");
  }
  return 0;
}
