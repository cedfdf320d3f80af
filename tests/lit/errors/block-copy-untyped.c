// A memcpy out of a malloc'd block carved at run-time offsets into doubles
// and ints (a solver's workspace), where nothing in the copying function
// says which bytes are doubles: its source is written only by a function
// that is not inlined. From -O1 the type analysis sees two types at every
// offset of the block, and the copy's adjoints were lost without a word
// (a gradient of 0, issue 33, found beside lmfit's lmmin2). Now a located
// error in reverse mode. (Where the function indexes the source or the
// destination as doubles, the copy moves them: e2e rev_block_copy_out.c.)
// RUN: %expect-exit 1 %adcc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O3 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) void fill(const double *a, int n, const int *p,
                                    double *b) {
  for (int j = 0; j < n; ++j)
    for (int k = 0; k < n; ++k)
      b[j * n + k] = a[p[j]] * a[k];
}

__attribute__((noinline)) void outer(int n, const double *x, double *out) {
  char *ws = malloc(2 * n * n * sizeof(double) + n * sizeof(int));
  char *c = ws;
  double *a = (double *)c;
  c += n * n * sizeof(double);
  double *w = (double *)c;
  c += n * n * sizeof(double);
  int *perm = (int *)c;
  for (int j = 0; j < n; ++j) {
    perm[j] = n - 1 - j;
    a[j] = x[perm[j]];
  }
  fill(a, n, perm, w);
  // CHECK: block-copy-untyped.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'outer' in reverse mode: a memory copy whose contents cannot be typed (a block used as two different types at run-time offsets)
  memcpy(out, w, n * n * sizeof(double));
  free(ws);
}

static double weighted(const double *x, int n) {
  double out[16];
  outer(n, x, out);
  double s = 0;
  for (int i = 0; i < n * n; ++i)
    s += (i + 1) * out[i];
  return s;
}

void gradient(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)weighted, enzyme_dup, x, g, enzyme_const, n);
}
