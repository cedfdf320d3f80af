// A function that runs a checkpointed loop (a call, and a loop marked
// ADCC_CHECKPOINT), differentiated from another file: its derivative is made
// at link time, the loop's step derivatives with it. Gradients (and a
// forward-mode tangent) equal those of the loop taped whole, at -O0 and
// -O2, compiled as separate objects.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O2 -c model.c main.c
// RUN: %adcc model.o main.o -o prog -lm && ./prog | FileCheck %s
// RUN: %adcc -O0 -c model.c main.c
// RUN: %adcc model.o main.o -o prog0 -lm && ./prog0 | FileCheck %s
// CHECK: same

//--- model.c
#include <adcc.h>
#include <math.h>
static void step(double *y, const double *p) {
  y[0] = y[0] * p[0] + sin(y[1]);
  y[1] = 0.9 * y[1] + 0.1 * y[0];
}
double checkpointed(const double *y0, const double *p) {
  double y[2] = {y0[0], y0[1]};
  adcc_checkpointed_steps((void *)step, 30, y, sizeof y, (void *)p,
                          sizeof *p, ADCC_REVOLVE, 3);
  return y[0] + y[1];
}
double marked(const double *y0, const double *p) {
  double y[2] = {y0[0], y0[1]};
  ADCC_CHECKPOINT(2) for (int i = 0; i < 30; ++i) step(y, p);
  return y[0] + y[1];
}
double taped(const double *y0, const double *p) {
  double y[2] = {y0[0], y0[1]};
  for (int i = 0; i < 30; ++i)
    step(y, p);
  return y[0] + y[1];
}

//--- main.c
#include <math.h>
#include <stdio.h>
extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
double checkpointed(const double *y0, const double *p);
double marked(const double *y0, const double *p);
double taped(const double *y0, const double *p);
int main(void) {
  double y0[2] = {0.5, 0.2}, p[1] = {0.99}, v[2] = {1, -1}, w[1] = {0.5};
  double dy[2] = {0}, dp[1] = {0}, my[2] = {0}, mp[1] = {0}, ty[2] = {0},
         tp[1] = {0};
  __enzyme_autodiff((void *)checkpointed, enzyme_dup, y0, dy, enzyme_dup, p,
                    dp);
  __enzyme_autodiff((void *)marked, enzyme_dup, y0, my, enzyme_dup, p, mp);
  __enzyme_autodiff((void *)taped, enzyme_dup, y0, ty, enzyme_dup, p, tp);
  double t = __enzyme_fwddiff((void *)checkpointed, enzyme_dup, y0, v,
                              enzyme_dup, p, w);
  double tt = __enzyme_fwddiff((void *)taped, enzyme_dup, y0, v, enzyme_dup,
                               p, w);
  int same = fabs(dy[0] - ty[0]) < 1e-12 && fabs(dy[1] - ty[1]) < 1e-12 &&
             fabs(dp[0] - tp[0]) < 1e-12 && fabs(my[0] - ty[0]) < 1e-12 &&
             fabs(my[1] - ty[1]) < 1e-12 && fabs(mp[0] - tp[0]) < 1e-12 &&
             fabs(t - tt) < 1e-12 && ty[0] != 0;
  printf(same ? "same\n" : "differ %g %g %g / %g %g %g\n", dy[0], dy[1], dp[0],
         ty[0], ty[1], tp[0]);
  return 0;
}
