// A call through a function pointer whose only possible targets are
// functions of another file (`via(sq_e, x)` at -O0, where the pointer is
// not folded into a direct call): it dispatches to their derivatives, made
// at link time (was the error "no function defined in this translation
// unit can be the target of this call through a function pointer").
// Reverse mode against forward mode, central differences and the exact
// derivative, at -O0 to -O3; without -fadcc-cross-tu it stays that error.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c lib.c -o lib0.o && %adcc -O0 main.c lib0.o -lm -o prog0 && ./prog0 | FileCheck %s
// RUN: %adcc -O1 -c lib.c -o lib1.o && %adcc -O1 main.c lib1.o -lm -o prog1 && ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c lib.c -o lib2.o && %adcc -O2 main.c lib2.o -lm -o prog2 && ./prog2 | FileCheck %s
// RUN: %adcc -O3 -c lib.c -o lib3.o && %adcc -O3 main.c lib3.o -lm -o prog3 && ./prog3 | FileCheck %s
// CHECK: ok
// RUN: not %adcc -O0 -fno-adcc-cross-tu -c main.c -o main.o 2>&1 | FileCheck --check-prefix=LOCAL %s
// LOCAL: main.c:15:3: error: cannot differentiate 'via' in reverse mode: no function defined in this translation unit can be the target of this call through a function pointer

//--- lib.c
#include <math.h>
struct result {
  double val, err;
};
int sq_e(double x, struct result *r) {
  r->val = x * x * sin(x);
  r->err = 0;
  return 0;
}
int cube_e(double x, struct result *r) {
  r->val = x * x * x;
  r->err = 0;
  return 0;
}

//--- main.c
#include <math.h>
#include <stdio.h>
struct result {
  double val, err;
};
int sq_e(double x, struct result *r);
int cube_e(double x, struct result *r);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef int (*special)(double, struct result *);
static double via(special e, double x) {
  struct result r;
  // A line that calls e through the pointer: the error's place without
  // -fadcc-cross-tu.
  e(x, &r);
  return r.val;
}
double f(double x) { return via(sq_e, x) * x + via(cube_e, x); }
int main(void) {
  int bad = 0;
  for (double x = -1.3; x < 2; x += 0.6) {
    double g = __enzyme_autodiff((void *)f, x);
    double t = __enzyme_fwddiff((void *)f, x, 1.0);
    double fd = (f(x + 1e-6) - f(x - 1e-6)) / 2e-6;
    double exact = 3 * x * x * sin(x) + x * x * x * cos(x) + 3 * x * x;
    if (fabs(g - exact) > 1e-12 * (1 + fabs(exact)) ||
        fabs(t - g) > 1e-12 * (1 + fabs(g)) ||
        fabs(fd - exact) > 1e-6 * (1 + fabs(exact))) {
      printf("FAIL %g: %.15g %.15g %.15g %.15g\n", x, g, t, fd, exact);
      bad = 1;
    }
  }
  puts(bad ? "failed" : "ok");
  return bad;
}
