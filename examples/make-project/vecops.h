/* vecops.h - dense vector and matrix operations on double arrays.
 *
 * Part of the adcc make-project example. All values the demo programs use
 * are dyadic rationals of small magnitude, so every operation below is exact
 * in IEEE double arithmetic and the printed checksums do not depend on the
 * compiler, the optimization level or the order of summation. */
#ifndef VECOPS_H
#define VECOPS_H

#include <stddef.h>

/* x[i] = start + i * step */
void vec_ramp(double *x, size_t n, double start, double step);
/* x[i] *= alpha */
void vec_scale(double *x, size_t n, double alpha);
/* y[i] += alpha * x[i] */
void vec_axpy(double *y, const double *x, size_t n, double alpha);

/* sum of x[i] * y[i] */
double vec_dot(const double *x, const double *y, size_t n);
/* sum of x[i] */
double vec_sum(const double *x, size_t n);
/* max of |x[i]|, 0 for an empty vector */
double vec_max_abs(const double *x, size_t n);

/* y = A x for a row-major rows x cols matrix A */
void mat_vec(const double *a, size_t rows, size_t cols, const double *x,
             double *y);

#endif /* VECOPS_H */
