/* mat.c - dense matrix-vector product, built on the vector reductions. */
#include "vecops.h"

void mat_vec(const double *a, size_t rows, size_t cols, const double *x,
             double *y) {
  for (size_t r = 0; r < rows; ++r)
    y[r] = vec_dot(a + r * cols, x, cols);
}
