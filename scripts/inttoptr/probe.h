/* Harness of the inttoptr probes (run.sh): a case defines
 *   static double f(double *x)      (N inputs, N from the case)
 * before including this file; main checks its gradient (reverse mode) and
 * its tangents (forward mode, one per input) against central differences
 * and prints "ok" or the derivatives that differ. */
#include <math.h>
#include <stdio.h>

#ifndef N
#define N 3
#endif

extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static int close_to(double a, double b) {
  double s = fabs(b) > 1 ? fabs(b) : 1;
  return fabs(a - b) <= 1e-5 * s;
}

int main(void) {
  double x0[N], fd[N], g[N] = {0}, x[N];
  for (int i = 0; i < N; ++i)
    x0[i] = 0.4 + 0.35 * i;
  for (int i = 0; i < N; ++i) {
    double h = 1e-6, xp[N], xm[N];
    for (int j = 0; j < N; ++j)
      xp[j] = xm[j] = x0[j];
    xp[i] += h;
    xm[i] -= h;
    fd[i] = (f(xp) - f(xm)) / (2 * h);
  }
  for (int j = 0; j < N; ++j)
    x[j] = x0[j];
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
  int bad = 0;
  for (int i = 0; i < N; ++i) {
    double dx[N] = {0};
    for (int j = 0; j < N; ++j)
      x[j] = x0[j];
    dx[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx);
    if (!close_to(g[i], fd[i])) {
      printf("reverse d/dx%d = %.10g, differences %.10g\n", i, g[i], fd[i]);
      bad = 1;
    }
    if (!close_to(t, fd[i])) {
      printf("forward d/dx%d = %.10g, differences %.10g\n", i, t, fd[i]);
      bad = 1;
    }
  }
  printf(bad ? "WRONG\n" : "ok\n");
  return bad;
}
