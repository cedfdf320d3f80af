// A function differentiated at link time that calls another file's timer,
// which counts in a static array of structs that also hold a double (set
// by a report the derivative never runs). The link step took every global
// holding a double for one the derivative may write: the array got a
// shadow, the timer was differentiated, and its copy used the file's
// static variable ("a derivative made at link time uses 'timers', a static
// variable of the file ..."; found on CoMD, whose timestep calls
// profileStart and profileStop). The counter's stores are integer
// arithmetic, no float's bits: the timer is a constant call now, the
// program's own, and it still counts.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c timers.c step.c && %adcc -O0 -c main.c
// RUN: %adcc main.o step.o timers.o -o prog0 -lm && ./prog0 | FileCheck %s
// RUN: %adcc -O2 -c timers.c step.c && %adcc -O2 -c main.c
// RUN: %adcc main.o step.o timers.o -o prog2 -lm && ./prog2 | FileCheck %s
// RUN: %adcc -O1 main.c step.c timers.c -o prog1 -lm && ./prog1 | FileCheck %s
// CHECK: gradient ok
// CHECK: tangent ok
// CHECK: counted 16 steps

//--- timers.h
void tick(int which);
void tock(int which);
long steps_counted(void);
void report(void);

//--- timers.c
#include "timers.h"
#include <stdio.h>
typedef struct {
  long start, total, count;
  double average;
} Timer;
static Timer timers[4];
static long clock_now;
void tick(int which) { timers[which].start = ++clock_now; }
void tock(int which) {
  timers[which].count += 1;
  timers[which].total += ++clock_now - timers[which].start;
}
long steps_counted(void) { return timers[1].count; }
void report(void) {
  for (int i = 0; i < 4; ++i)
    if (timers[i].count)
      timers[i].average = (double)timers[i].total / timers[i].count;
  printf("average %g\n", timers[1].average);
}

//--- step.c
#include "timers.h"
#include <math.h>
double run(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    tick(1);
    s += sin(x[i]) * x[i];
    tock(1);
  }
  return s;
}

//--- main.c
#include "timers.h"
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double run(const double *x, int n);

int main(void) {
  double x[4] = {0.3, -1.2, 2.0, 0.7}, dx[4] = {0}, v[4] = {1, -2, 0.5, 3};
  __enzyme_autodiff((void *)run, enzyme_dup, x, dx, enzyme_const, 4);
  double dot = 0, worst = 0;
  for (int i = 0; i < 4; ++i) {
    double want = cos(x[i]) * x[i] + sin(x[i]);
    worst = fmax(worst, fabs(dx[i] - want));
    dot += dx[i] * v[i];
  }
  printf("gradient %s\n", worst < 1e-14 ? "ok" : "FAIL");
  double t = __enzyme_fwddiff((void *)run, enzyme_dup, x, v, enzyme_const, 4);
  printf("tangent %s\n", fabs(t - dot) < 1e-13 ? "ok" : "FAIL");
  // Both derivatives ran the primal's 4 steps, and so do two calls.
  run(x, 4);
  run(x, 4);
  printf("counted %ld steps\n", steps_counted());
  report();
  return 0;
}
