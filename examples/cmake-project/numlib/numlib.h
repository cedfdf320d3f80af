/* numlib.h - a small C library: least-squares fit of a quadratic model.
 *
 * Part of the adcc cmake-project example. Usable from C and C++. */
#ifndef NUMLIB_H
#define NUMLIB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { NL_PARAMS = 3 };

/* The model p[0] + p[1] x + p[2] x^2. */
double nl_model(const double p[NL_PARAMS], double x);

/* Loss 0.5 * sum over i of (nl_model(p, x[i]) - y[i])^2. */
double nl_loss(const double p[NL_PARAMS], const double *x, const double *y,
               size_t n);

/* The same loss, and its gradient with respect to p written to grad, by a
 * hand-written reverse sweep that keeps the residuals on adcc's tape. */
double nl_loss_grad(const double p[NL_PARAMS], const double *x,
                    const double *y, size_t n, double grad[NL_PARAMS]);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* NUMLIB_H */
