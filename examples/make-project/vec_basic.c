/* vec_basic.c - element-wise vector operations. */
#include "vecops.h"

void vec_ramp(double *x, size_t n, double start, double step) {
  for (size_t i = 0; i < n; ++i)
    x[i] = start + (double)i * step;
}

void vec_scale(double *x, size_t n, double alpha) {
  for (size_t i = 0; i < n; ++i)
    x[i] *= alpha;
}

void vec_axpy(double *y, const double *x, size_t n, double alpha) {
  for (size_t i = 0; i < n; ++i)
    y[i] += alpha * x[i];
}
