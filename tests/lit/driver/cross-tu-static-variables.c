// A derivative made at link time that reads static variables of the file
// defining the function, which that file writes: a table an init function
// fills, a gain a setter changes, a count of calls
// (genann's sigmoid table, scripts/realcode/genann.sh). The derivative's
// copy of such a variable never sees what the program stores, and adcc
// refused it ("a derivative made at link time uses 'table', a static
// variable of the file ..."). Each file now exports such variables under
// names of its own (two files here have a static `gain`), and the link
// step's derivatives use the program's variables through them. A static
// that nothing reads (last_input) is written into the derivative's own
// copy: nothing can tell (it was the same error at -O0, where its stores
// are still there).
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c lib.c other.c && %adcc -O0 -c main.c
// RUN: %adcc main.o lib.o other.o -o prog0 -lm && ./prog0 | FileCheck %s
// RUN: %adcc -O2 -c lib.c other.c && %adcc -O2 -c main.c
// RUN: %adcc main.o lib.o other.o -o prog2 -lm && ./prog2 | FileCheck %s
// RUN: %adcc -O1 main.c lib.c other.c -o prog1 -lm && ./prog1 | FileCheck %s
// RUN: %adcc -O3 main.c other.c lib.c -o prog3 -lm && ./prog3 | FileCheck %s
// Variables written and read are exported (hidden), those only read not.
// RUN: llvm-nm lib.o | FileCheck %s --check-prefix=SYMS
// CHECK: interp ok
// CHECK: model ok
// CHECK: other ok
// CHECK: counted 3 calls
// SYMS-DAG: {{[bBdD]}} __adcc_static.{{[0-9a-f]+}}.table
// SYMS-DAG: {{[bBdD]}} __adcc_static.{{[0-9a-f]+}}.gain
// SYMS-DAG: {{[bBdD]}} __adcc_static.{{[0-9a-f]+}}.calls
// SYMS-NOT: __adcc_static.{{.*}}.{{offset|last_input}}

//--- lib.h
void init_table(double lo, double hi);
void set_gain(double g);
double interp(double x);
double model(const double *x, int n);
int model_calls(void);
double other_model(double x);
void set_other_gain(double g);

//--- lib.c
#include "lib.h"
static double table[65], lo, step;
static double gain = 1.0;
static double offset = 0.25; // (only read: every copy holds it)
void init_table(double a, double b) {
  lo = a;
  step = (b - a) / 64;
  for (int i = 0; i <= 64; ++i) {
    double x = a + step * i;
    table[i] = x * x * x; // x^3 sampled
  }
}
void set_gain(double g) { gain = g; }
// A linear interpolation: its derivative is the slope of the segment.
double interp(double x) {
  double u = (x - lo) / step;
  int j = (int)u;
  if (j < 0) j = 0;
  if (j > 63) j = 63;
  double w = u - j;
  return (1 - w) * table[j] + w * table[j + 1];
}
static int calls;
static double last_input; // (only written: not exported, its copy unseen)
double model(const double *x, int n) {
  ++calls;
  last_input = x[0];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += gain * x[i] * x[i] + offset * x[i];
  return s;
}
int model_calls(void) { return calls; }

//--- other.c
#include "lib.h"
static double gain = 5.0;
void set_other_gain(double g) { gain = g; }
double other_model(double x) { return gain * x * x; }

//--- main.c
#include "lib.h"
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
int main(void) {
  init_table(0.0, 2.0);
  // On the segment [1.0, 1.03125]: slope (b^3 - a^3) / (b - a).
  double a = 1.0, b = 1.03125, slope = (b * b * b - a * a * a) / (b - a);
  double r = __enzyme_autodiff((void *)interp, 1.01);
  double t = __enzyme_fwddiff((void *)interp, 1.01, 1.0);
  if (fabs(r - slope) < 1e-12 && fabs(t - slope) < 1e-12)
    printf("interp ok\n");
  else
    printf("interp %g %g, expected %g\n", r, t, slope);
  set_gain(3.0);
  double x[2] = {1.5, -2.0}, dx[2] = {0, 0}, tx[2] = {1, 0};
  __enzyme_autodiff((void *)model, enzyme_dup, x, dx, enzyme_const, 2);
  double m = __enzyme_fwddiff((void *)model, enzyme_dup, x, tx,
                              enzyme_const, 2);
  model(x, 2);
  // d/dx_i: 2 gain x_i + offset.
  if (dx[0] == 9.25 && dx[1] == -11.75 && m == 9.25)
    printf("model ok\n");
  else
    printf("model %g %g %g\n", dx[0], dx[1], m);
  set_other_gain(7.0);
  double o = __enzyme_autodiff((void *)other_model, 2.0);
  if (o == 28.0)
    printf("other ok\n");
  else
    printf("other %g\n", o);
  // (The gradient, the tangent and the call: each counted once.)
  printf("counted %d calls\n", model_calls());
  return 0;
}
