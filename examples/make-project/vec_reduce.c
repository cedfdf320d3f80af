/* vec_reduce.c - reductions over vectors. */
#include "vecops.h"

double vec_dot(const double *x, const double *y, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

double vec_sum(const double *x, size_t n) {
  double s = 0.0;
  for (size_t i = 0; i < n; ++i)
    s += x[i];
  return s;
}

double vec_max_abs(const double *x, size_t n) {
  double m = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double a = x[i] < 0.0 ? -x[i] : x[i];
    if (a > m)
      m = a;
  }
  return m;
}
