/* poly.c - polynomial evaluation and differentiation. */
#include "poly.h"

double poly_eval(const double *c, size_t degree, double x) {
  double p = c[degree];
  for (size_t k = degree; k-- > 0;)
    p = p * x + c[k];
  return p;
}

size_t poly_derive(const double *c, size_t degree, double *dc) {
  if (degree == 0) {
    dc[0] = 0.0;
    return 0;
  }
  for (size_t k = 1; k <= degree; ++k)
    dc[k - 1] = (double)k * c[k];
  return degree - 1;
}
