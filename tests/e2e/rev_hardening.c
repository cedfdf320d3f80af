/* Derivatives of code built with hardening flags: _FORTIFY_SOURCE (defined
 * here when optimizing, as Debian's default flags do), whose headers turn
 * memcpy, memmove, memset and printf into __memcpy_chk & co. with the size
 * the compiler knows of the destination; and, registered a second time
 * with -fsanitize=undefined, UBSan's checks and reports inside the
 * differentiated functions. Gradients against central differences and,
 * along a random direction, against forward mode. */
#if defined(__OPTIMIZE__) && !defined(_FORTIFY_SOURCE)
#define _FORTIFY_SOURCE 2
#endif
#include "rev_check.h"

#include <string.h>

#define N 6

static int verbose = 0;
/* The lengths copied: known only at run time, so that the headers' checks
 * stay calls (__memcpy_chk with the destination's size). */
int len = N;

/* memcpy into a local array of known size, memmove within it, memset of a
 * part, and (fortified) printf and fprintf that never run. */
static double copies(const double *x) {
  double t[N + 2], s = 0;
  memset(t, 0, (len + 2) * sizeof *t);
  memcpy(t + 1, x, len * sizeof *t);
  memmove(t, t + 1, (len - 1) * sizeof *t); /* t[0..N-2] = x[0..N-2] */
  memset(t + len - 1, 0, 2 * sizeof *t);
  for (int i = 0; i < N + 2; i++)
    s += t[i] * sin(t[i] + x[(i + 1) % N]);
  if (verbose) {
    printf("s = %g\n", s);
    /* Four arguments to variadic functions (__fprintf_chk(stderr, 2, fmt,
     * s) when fortified): the rewrite of __memcpy_chk & co. read their
     * parameter types out of range and crashed adcc. */
    fprintf(stderr, "%s = %g\n", "s", s);
    fprintf(stderr, "%g\n", s);
  }
  return s;
}

/* Signed arithmetic, shifts and array indices (UBSan checks them all). */
static double indexed(const double *x) {
  double s = 0;
  int k = 3;
  for (int i = 0; i < N; i++) {
    k = (k * 5 + i) % N;
    s += x[k] * x[i] / (1 + (i << 1));
  }
  return s * s;
}

/* A heap buffer copied with memcpy (its size is not known: no check). */
static double heap(const double *x) {
  double *t = malloc(N * sizeof *t);
  memcpy(t, x, len * sizeof *t);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += exp(0.1 * t[i]) * t[(i + 2) % N];
  free(t);
  return s;
}

#define check_one(f)                                                           \
  do {                                                                         \
    double x[N], g[N] = {0}, v[N];                                             \
    for (int i = 0; i < N; ++i)                                                \
      x[i] = 0.5 * rev_rand();                                                 \
    __enzyme_autodiff((void *)f, x, g);                                        \
    printf("%-8s d/dx0 = %.12g\n", #f, g[0]);                                  \
    CHECK_GRAD(f, x, N, g, NULL);                                              \
    rev_dir(g, v, N);                                                          \
    CHECK_DOT(g, v, N, __enzyme_fwddiff((void *)f, x, v));                     \
  } while (0)

int main(void) {
  check_one(copies);
  check_one(indexed);
  check_one(heap);
  return check_finish();
}
