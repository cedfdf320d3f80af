// Reverse over forward mode at -O0 of a double's bits copied into an
// integer array from a row of a table of pointers that mixes a constant
// global and an array with derivatives: the forward derivative's guarded
// shadow copy (the source's shadow may be null) is not typed in the
// reverse pass. A located error, never a wrong second derivative
// (docs/status.md, "Not yet implemented"; adfuzz v24 seed 5). At -O2 it
// compiles and is right.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <string.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
static const double K[4] = {0.5, -0.25, 0.75, 1.5};
static double f(const double *x) {
  double loc[4];
  for (int j = 0; j < 4; j++)
    loc[j] = x[0] * j;
  const double **pt = (const double **)__builtin_malloc(2 * sizeof *pt);
  pt[0] = K;
  pt[1] = loc;
  unsigned long long ib[4];
  double a[4];
  for (int j = 0; j < 4; j++)
    memcpy(&ib[j], &pt[0][j], sizeof(double));
  for (int j = 0; j < 4; j++)
    memcpy(&a[j], &ib[j], sizeof(double));
  double r = x[0] * x[0] * a[1] + x[0] * a[3] + pt[1][2] * x[0];
  __builtin_free(pt);
  return r;
}
static double df(const double *x, const double *dx) {
  double xb[1] = {x[0]}, dxb[1] = {dx[0]};
  return __enzyme_fwddiff((void *)f, enzyme_dup, xb, dxb);
}
void hess(double *x, double *h) {
  double e[1] = {1};
  // CHECK: rof-bits-pointer-table.c:[[@LINE+1]]:3: error: cannot differentiate the derivative of 'f' in reverse mode: a memory copy whose contents cannot be typed
  __enzyme_autodiff((void *)df, enzyme_dup, x, h, enzyme_const, e);
}
// CHECK-NOT: Stack dump
