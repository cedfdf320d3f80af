// A call through a function pointer of a type that no function of the
// program has: the derivative compiles (the call may be on a path that
// never runs, as a null callback's: e2e fnptr_untargeted.c), and where it
// runs the program stops before the call with the place of the call (a
// compile-time error until 2026-12-07), in reverse and in forward mode.
// (Where this file declares a function of that type, its address taken,
// without -fadcc-cross-tu, the compile-time error stays: lit
// driver/cross-tu-pointer-targets.c, LOCAL.)
// RUN: %adcc -O0 %s -o %t0 -lm
// RUN: not --crash %t0 r 2>&1 | FileCheck %s
// RUN: not --crash %t0 f 2>&1 | FileCheck %s
// RUN: %adcc -O2 %s -o %t2 -lm
// RUN: not --crash %t2 r 2>&1 | FileCheck %s
// RUN: not --crash %t2 f 2>&1 | FileCheck %s
// CHECK: adcc runtime: error: {{.*}}fnptr-untargeted-stop.c:[[#@LINE+15]]:10: the derivative of 'f' calls a function pointer, and no function of the pointer's type is defined in the translation unit that requests the derivative (none has a derivative); define the target there
// CHECK-NOT: reached
#include <math.h>
#include <stdint.h>
#include <stdio.h>

extern int enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef double (*closure3)(double, double, int);

__attribute__((noinline)) static double f(double x, closure3 c) {
  double y = sin(x) * x;
  if (c)
    y += c(y, x, 3);
  return y * y;
}

int main(int argc, char **argv) {
  (void)argc;
  // (Never called: the stop comes first.)
  closure3 c = (closure3)(uintptr_t)16;
  double d = argv[1][0] == 'r'
                 ? __enzyme_autodiff((void *)f, 0.5, enzyme_const, c)
                 : __enzyme_fwddiff((void *)f, 0.5, 1.0, enzyme_const, c);
  printf("reached %g\n", d);
  return 0;
}
