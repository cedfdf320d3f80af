/* A workspace in one malloc'd block holding arrays of doubles and then int
 * pivots at run-time offsets, part of it copied out to the caller with
 * memcpy (lmfit's lmmin2: `memcpy(covar, wh2, n * n * sizeof(double))`).
 * From -O1 the type analysis sees doubles and ints at every offset of the
 * block, and the copy's adjoints were dropped without a word: the
 * covariance's gradient was 0 in reverse mode. The program indexes the
 * source as doubles (`w[j * n + j]`): the copy moves doubles. Reverse and
 * forward mode against the analytic derivative. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* out[j n + k] = x_{p_j} x_k + [j == k], p reverses the order, and
 * diag[j] = out[j n + j] read through the block. */
__attribute__((noinline)) static void outer(int n, const double *x,
                                            double *diag, double *out) {
  char *ws = malloc(2 * n * n * sizeof(double) + n * sizeof(int));
  char *p = ws;
  double *a = (double *)p;
  p += n * n * sizeof(double);
  double *w = (double *)p;
  p += n * n * sizeof(double);
  int *perm = (int *)p;
  for (int j = 0; j < n; ++j) {
    perm[j] = n - 1 - j;
    a[j] = x[j];
  }
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k)
      w[j * n + k] = a[perm[j]] * a[k] + (j == k);
  if (diag)
    for (int j = 0; j < n; ++j)
      diag[j] = w[j * n + j];
  if (out)
    memcpy(out, w, n * n * sizeof(double));
  free(ws);
}

/* sum_{j,k} (j n + k + 1) out[j n + k] */
static double weighted(const double *x, int n) {
  double out[16];
  outer(n, x, NULL, out);
  double s = 0;
  for (int i = 0; i < n * n; ++i)
    s += (i + 1) * out[i];
  return s;
}

int main(void) {
  enum { N = 3 };
  double x[N] = {0.5, -1.25, 2.0};
  double g[N] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, x, g, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    /* d/dx_i sum_{j,k} c_{jk} x_{N-1-j} x_k, c_{jk} = j N + k + 1 */
    double want = 0;
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k) {
        double c = j * N + k + 1;
        if (N - 1 - j == i)
          want += c * x[k];
        if (k == i)
          want += c * x[N - 1 - j];
      }
    double d[N] = {0};
    d[i] = 1;
    double t = __enzyme_fwddiff((void *)weighted, enzyme_dup, x, d,
                                enzyme_const, N);
    CHECK_CLOSE(g[i], want, 1e-12);
    CHECK_CLOSE(t, want, 1e-12);
  }
  return check_finish();
}
