// A derivative made at link time that writes through a shadow that may be
// null (NullShadowGuards.h: it adds into adcc's sink block instead) in a
// program whose requesting file has made such a derivative itself: that
// file's IR holds the sink, a private variable. The link step took it for
// a static variable of the program and refused ("a derivative made at link
// time uses 'adcc.shadow.sink.64', a static variable of the file ...";
// found on HPCCG at -O0). Nothing reads a sink: each derivative may use
// its own.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O1 -c step.c main.c
// RUN: llvm-nm main.o | FileCheck --check-prefix=CALLS %s
// RUN: %adcc main.o step.o -o prog -lm && ./prog | FileCheck %s
// RUN: %adcc -O2 main.c step.c -o prog2 -lm && ./prog2 | FileCheck %s
// CALLS: U __adcc_xtu.
// CHECK: here 0.7 there 0.7 ok

//--- stage.h
// A struct holding a pointer to constant data (enzyme_const) next to the
// state: read back, the constant pointer's shadow is null.
struct sys {
  const double *p;
};
struct stage {
  const struct sys *s;
  double *x;
};
void step(const struct stage *st);

//--- step.c
#include "stage.h"
__attribute__((noinline)) static double rhs(const struct sys *s, double v) {
  return -s->p[0] * v;
}
void step(const struct stage *st) { st->x[0] += 0.1 * rhs(st->s, st->x[0]); }

//--- main.c
#include "stage.h"
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static double rhs_here(const struct sys *s,
                                                 double v) {
  return -s->p[0] * v;
}
__attribute__((noinline)) static void step_here(const struct stage *st) {
  st->x[0] += 0.1 * rhs_here(st->s, st->x[0]);
}

// The same step, in this file and in step.c.
static double run_here(const double *x0, const double *p) {
  struct sys s = {p};
  double x[1] = {x0[0]};
  struct stage st = {&s, x};
  step_here(&st);
  return x[0];
}
static double run_there(const double *x0, const double *p) {
  struct sys s = {p};
  double x[1] = {x0[0]};
  struct stage st = {&s, x};
  step(&st);
  return x[0];
}

int main(void) {
  double x = 2, p = 3, here = 0, there = 0;
  __enzyme_autodiff((void *)run_here, enzyme_dup, &x, &here, enzyme_const, &p);
  __enzyme_autodiff((void *)run_there, enzyme_dup, &x, &there, enzyme_const,
                    &p);
  // d/dx (x - 0.1 p x) = 1 - 0.1 p = 0.7
  printf("here %g there %g %s\n", here, there,
         here == there && here > 0.69 && here < 0.71 ? "ok" : "FAIL");
  return 0;
}
