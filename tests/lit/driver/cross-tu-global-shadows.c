// The shadows adcc makes of globals other files see (`<name>_shadow`) are
// zeroed after each derivative call, as those of static globals are,
// unless a file of the program names the shadow (it is then the program's
// to zero, as in Enzyme). Until 2026-12-06 they kept what a call left: a
// forward derivative of a function that reads the global before storing
// it (`r = x - prev; prev = x`) took a gradient's leftover adjoint, or an
// earlier direction's tangent, as prev's tangent (4 10 0 for 4 2 4); and a
// derivative made at link time of such a function left the shadow
// undefined (a link error). Each program runs a gradient, then two forward
// derivatives: d/dx (x - prev)^2 = 2 (x - prev), prev as the call finds it.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c state.c linked.c main.c reader.c
// RUN: %adcc main.o state.o linked.o -o prog0 && ./prog0 | FileCheck %s
// RUN: %adcc -O0 -DNAMED -c main.c
// RUN: %adcc main.o state.o linked.o reader.o -o named0
// RUN: ./named0 | FileCheck %s --check-prefix=NAMED
// RUN: %adcc -O1 -c state.c linked.c main.c reader.c
// RUN: %adcc main.o state.o linked.o -o prog1 && ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c state.c linked.c main.c reader.c
// RUN: %adcc main.o state.o linked.o -o prog2 && ./prog2 | FileCheck %s
// RUN: %adcc -O2 -DNAMED -c main.c
// RUN: %adcc main.o state.o linked.o reader.o -o named2
// RUN: ./named2 | FileCheck %s --check-prefix=NAMED
// RUN: %adcc -O3 -DNAMED main.c state.c linked.c reader.c -o named3
// RUN: ./named3 | FileCheck %s --check-prefix=NAMED
// RUN: %adcc -O3 main.c state.c linked.c -o prog3 && ./prog3 | FileCheck %s
// CHECK: same file 4 2 4{{$}}
// CHECK-NEXT: link time 4 2 4{{$}}
// NAMED: named: gradient left -4, tangent left 1{{$}}
// NAMED-NEXT: same file 4 2 4{{$}}
// NAMED-NEXT: named at link time: gradient left -4, tangent left 1{{$}}
// NAMED-NEXT: link time 4 2 4{{$}}

//--- state.c
// A global other files see, differentiated where it is defined.
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double prev = 1.0;
static double step(double x) {
  double r = x - prev;
  prev = x;
  return r * r;
}
double grad(double x) { return __enzyme_autodiff((void *)step, x); }
double tang(double x) { return __enzyme_fwddiff((void *)step, x, 1.0); }

//--- linked.c
// One differentiated at link time (the requests are in main.c).
double last = 1.0;
double lagged(double x) {
  double r = x - last;
  last = x;
  return r * r;
}

//--- reader.c
// A file that names both shadows: the program's to zero.
extern double prev_shadow, last_shadow;
double read_prev_shadow(void) { return prev_shadow; }
double read_last_shadow(void) { return last_shadow; }
void zero_shadows(void) { prev_shadow = last_shadow = 0; }

//--- main.c
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double grad(double), tang(double), lagged(double);
double read_prev_shadow(void), read_last_shadow(void);
void zero_shadows(void);

int main(void) {
#ifndef NAMED
  double g = grad(3.0), t = tang(4.0), t2 = tang(6.0);
  printf("same file %g %g %g\n", g, t, t2);
  double lg = __enzyme_autodiff((void *)lagged, 3.0);
  double lt = __enzyme_fwddiff((void *)lagged, 4.0, 1.0);
  double lt2 = __enzyme_fwddiff((void *)lagged, 6.0, 1.0);
  printf("link time %g %g %g\n", lg, lt, lt2);
  return !(g == 4 && t == 2 && t2 == 4 && lg == 4 && lt == 2 && lt2 == 4);
#else
  // The program reads what each call left (the adjoint of prev's read,
  // -2 (3 - 1); prev's tangent after the store, 1) and zeroes it.
  double g = grad(3.0), gs = read_prev_shadow();
  zero_shadows();
  double t = tang(4.0), ts = read_prev_shadow();
  zero_shadows();
  double t2 = tang(6.0);
  printf("named: gradient left %g, tangent left %g\n", gs, ts);
  printf("same file %g %g %g\n", g, t, t2);
  double lg = __enzyme_autodiff((void *)lagged, 3.0);
  double lgs = read_last_shadow();
  zero_shadows();
  double lt = __enzyme_fwddiff((void *)lagged, 4.0, 1.0);
  double lts = read_last_shadow();
  zero_shadows();
  double lt2 = __enzyme_fwddiff((void *)lagged, 6.0, 1.0);
  printf("named at link time: gradient left %g, tangent left %g\n", lgs, lts);
  printf("link time %g %g %g\n", lg, lt, lt2);
  return !(g == 4 && t == 2 && t2 == 4 && gs == -4 && ts == 1 && lg == 4 &&
           lt == 2 && lt2 == 4 && lgs == -4 && lts == 1);
#endif
}
