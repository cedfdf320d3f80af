/* The functions of fwd_dupnoneed.c and rev_dupnoneed.c: outputs written
 * only through a pointer (directly, by memset and by a callee), and one
 * that reads its output back. */
#ifndef ADCC_E2E_DUPNONEED_FUNCS_H
#define ADCC_E2E_DUPNONEED_FUNCS_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#define N 5

/* The three residuals of point (a, b), written through dst only. */
__attribute__((noinline)) static void put3(double *dst, double a, double b) {
  dst[0] = a * b;
  dst[1] = sin(a) + b;
  dst[2] = a * a * b;
}

/* All residuals: cleared first, then written by the callee. */
__attribute__((noinline)) static void
residuals(const double *x, const double *y, double *err, int n) {
  memset(err, 0, 3 * (size_t)n * sizeof *err);
  for (int i = 0; i < n; ++i)
    put3(&err[3 * i], x[i], y[i]);
}

/* Reads back what it wrote: the primal values are needed inside. */
__attribute__((noinline)) static void readback(const double *x, double *out) {
  out[0] = sin(x[0]);
  out[1] = out[0] * out[0] * x[1];
}

static double X[N] = {0.3, -1.2, 0.7, 2.1, -0.4};
static double Y[N] = {1.5, 0.2, -0.8, 0.9, 1.1};

#endif
