/* A workspace in one malloc'd block, carved with a char pointer into
 * arrays of doubles followed by an array of int pivots, as MINPACK-style
 * solvers keep it (lmfit's lmmin2: fvec, diag, fjac, ..., then ipvt). At
 * -O0 the type analysis sees the block's views at unknown offsets and calls
 * all of it doubles, so the pivots read back by `x[piv[j]]` looked like a
 * double's bits changed by integer operations, and forward mode refused
 * the function ("an integer holds the bits of a floating-point value"). An
 * integer that is only compared or used as an index needs no derivative,
 * whatever its bits. Forward and reverse mode against the analytic
 * derivative. */
#include "check.h"

#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* Orders piv so that |a[piv[0]]| >= |a[piv[1]]| >= ... (selection). */
__attribute__((noinline)) static void pivots(int n, const double *a,
                                             int *piv) {
  for (int j = 0; j < n; ++j)
    piv[j] = j;
  for (int j = 0; j < n; ++j) {
    int best = j;
    for (int k = j + 1; k < n; ++k)
      if (fabs(a[piv[k]]) > fabs(a[piv[best]]))
        best = k;
    int t = piv[j];
    piv[j] = piv[best];
    piv[best] = t;
  }
}

/* sum_j (j + 1) a[piv[j]] x[piv[j]] with a_i = x_i^2 - 1. */
static double weighted(const double *x, int n) {
  char *ws = malloc(2 * n * sizeof(double) + n * sizeof(int));
  char *p = ws;
  double *a = (double *)p;
  p += n * sizeof(double);
  double *b = (double *)p;
  p += n * sizeof(double);
  int *piv = (int *)p;
  for (int i = 0; i < n; ++i)
    a[i] = x[i] * x[i] - 1;
  pivots(n, a, piv);
  for (int j = 0; j < n; ++j)
    b[j] = a[piv[j]] * x[piv[j]];
  double s = 0;
  for (int j = 0; j < n; ++j)
    s += (j + 1) * b[j];
  free(ws);
  return s;
}

int main(void) {
  enum { N = 4 };
  double x[N] = {0.3, -1.7, 2.1, 0.9};
  /* |a| = 0.91, 1.89, 3.41, 0.19: piv = 2, 1, 0, 3; d/dx_i of
     a_i x_i = 3 x_i^2 - 1, weighted by the rank + 1. */
  const int rank[N] = {2, 1, 0, 3};
  double g[N] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, x, g, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    double want = (rank[i] + 1) * (3 * x[i] * x[i] - 1);
    double d[N] = {0};
    d[i] = 1;
    double t = __enzyme_fwddiff((void *)weighted, enzyme_dup, x, d,
                                enzyme_const, N);
    CHECK_CLOSE(g[i], want, 1e-12);
    CHECK_CLOSE(t, want, 1e-12);
  }
  return check_finish();
}
