/* poly.h - polynomials with double coefficients, lowest degree first.
 *
 * Part of the adcc make-project example. */
#ifndef POLY_H
#define POLY_H

#include <stddef.h>

/* p(x) = c[0] + c[1] x + ... + c[degree] x^degree, by Horner's scheme */
double poly_eval(const double *c, size_t degree, double x);
/* Writes the degree-1 coefficients of p' into dc (dc has room for
 * max(degree, 1) values); returns the degree of p'. */
size_t poly_derive(const double *c, size_t degree, double *dc);

#endif /* POLY_H */
