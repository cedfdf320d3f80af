/* Reverse and forward mode through the aligned allocators inside the
 * differentiated function: posix_memalign (the block returned through a
 * pointer argument, also from a helper, and its EINVAL path), aligned_alloc,
 * memalign and valloc. Each block gets a zeroed shadow block, freed with
 * it. Central differences, a closed form and forward mode (dot-product
 * tests). (Before: posix_memalign had "no body"; memalign and valloc
 * blocks had no shadow.) */
#define _GNU_SOURCE
#include "rev_check.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>

#define N 5

/* s = sum_i (sin(x_i) x_{i+1}) (sin(x_{i+2}) x_{i+3}) */
static double with_posix_memalign(const double *x) {
  double *b = NULL;
  if (posix_memalign((void **)&b, 64, N * sizeof(double)) != 0)
    return 0;
  for (int i = 0; i < N; ++i)
    b[i] = sin(x[i]) * x[(i + 1) % N];
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += b[i] * b[(i + 2) % N];
  free(b);
  return s;
}

/* the block made by a helper, through its pointer argument; a request
 * with an alignment that is no power of two fails with EINVAL and leaves
 * its pointer alone */
static __attribute__((noinline)) int make_block(double **out, size_t n) {
  return posix_memalign((void **)out, 32, n * sizeof(double));
}
static double through_helper(const double *x) {
  double *b = NULL, *bad = NULL;
  int status = posix_memalign((void **)&bad, 24, sizeof(double));
  if (make_block(&b, N) != 0)
    return 0;
  for (int i = 0; i < N; ++i)
    b[i] = x[i] * x[i] + (status == EINVAL && !bad ? 1.0 : -100.0);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += b[i] * cos(x[(i + 1) % N]);
  free(b);
  return s;
}

static double with_aligned_alloc(const double *x) {
  double *b = (double *)aligned_alloc(32, 8 * sizeof(double));
  for (int i = 0; i < N; ++i)
    b[i] = exp(0.2 * x[i]) + x[i];
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += b[i] * b[i] * x[(i + 3) % N];
  free(b);
  return s;
}

static double with_memalign_valloc(const double *x) {
  double *b = (double *)memalign(64, N * sizeof(double));
  double *c = (double *)valloc(N * sizeof(double));
  for (int i = 0; i < N; ++i) {
    b[i] = x[i] * x[i];
    c[i] = cos(b[i]);
  }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += c[i] * b[(i + 1) % N];
  free(b);
  free(c);
  return s;
}

int main(void) {
  CHECK_GRAD_AND_DOT(with_posix_memalign, N, 1.0);
  CHECK_GRAD_AND_DOT(through_helper, N, 1.0);
  CHECK_GRAD_AND_DOT(with_aligned_alloc, N, 1.0);
  CHECK_GRAD_AND_DOT(with_memalign_valloc, N, 1.0);
  /* a closed form: d/dx_i of through_helper = 2 x_i cos(x_{i+1}) -
   * (x_{i-1}^2 + 1) sin(x_i) */
  double x[N] = {0.3, -0.7, 1.1, 0.5, -0.2}, g[N] = {0}, exact[N];
  __enzyme_autodiff((void *)through_helper, x, g);
  for (int i = 0; i < N; ++i) {
    double prev = x[(i + N - 1) % N];
    exact[i] = 2 * x[i] * cos(x[(i + 1) % N]) - (prev * prev + 1) * sin(x[i]);
  }
  CHECK_GRAD(through_helper, x, N, g, exact);
  return check_finish();
}
