// A checkpointed loop whose step function is defined in another file: the
// step's derivatives are made at link time, as for any function of another
// file; the gradient equals that of the loop taped whole, at -O0 and -O2,
// compiled together or as separate objects.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O2 -c step.c main.c
// RUN: %adcc step.o main.o -o prog -lm && ./prog | FileCheck %s
// RUN: %adcc -O0 -g step.c main.c -o prog0 -lm && ./prog0 | FileCheck %s
// CHECK: same

//--- step.c
#include <math.h>
void xstep(double *y, const double *p) {
  y[0] = y[0] * p[0] + sin(y[1]);
  y[1] = 0.9 * y[1] + 0.1 * y[0];
}

//--- main.c
#include <adcc.h>
#include <math.h>
#include <stdio.h>
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
void xstep(double *y, const double *p);
static double checkpointed(const double *y0, const double *p) {
  double y[2] = {y0[0], y0[1]};
  adcc_checkpointed_steps((void *)xstep, 30, y, sizeof y, (void *)p,
                          sizeof *p, ADCC_REVOLVE, 3);
  return y[0] + y[1];
}
static double taped(const double *y0, const double *p) {
  double y[2] = {y0[0], y0[1]};
  for (int i = 0; i < 30; ++i)
    xstep(y, p);
  return y[0] + y[1];
}
int main(void) {
  double y0[2] = {0.5, 0.2}, p[1] = {0.99};
  double dy[2] = {0}, dp[1] = {0}, ty[2] = {0}, tp[1] = {0};
  __enzyme_autodiff((void *)checkpointed, enzyme_dup, y0, dy, enzyme_dup, p,
                    dp);
  __enzyme_autodiff((void *)taped, enzyme_dup, y0, ty, enzyme_dup, p, tp);
  double d = fabs(dy[0] - ty[0]) + fabs(dy[1] - ty[1]) + fabs(dp[0] - tp[0]);
  printf("%s %g %g\n", d < 1e-12 * (1 + fabs(tp[0])) ? "same" : "DIFFERENT",
         dp[0], tp[0]);
  return 0;
}
