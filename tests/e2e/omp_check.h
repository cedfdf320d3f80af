/* The OpenMP end-to-end programs' check: an objective f(x, y, n) of N
 * inputs (y a work array), its gradient by reverse mode and its tangent by
 * forward mode (DERIVATIVES(f) defines both), checked with teams of 1, 2
 * and 4 threads: the gradient against central differences of step h
 * (relative tolerance tol), the tangent along a fixed direction against the
 * gradient's dot product with it (tolerance tol / 1000). Define N before
 * including it. C and C++. */
#ifndef ADCC_E2E_OMP_CHECK_H
#define ADCC_E2E_OMP_CHECK_H

#include "check.h"

#include <omp.h>

#ifdef __cplusplus
extern "C" {
#endif
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
#ifdef __cplusplus
}
#endif

typedef double (*objective)(const double *, double *, int);
typedef void (*gradient)(const double *, double *, double *, double *);
typedef double (*tangent)(const double *, const double *, double *,
                          double *);

/* The gradient and the tangent of each objective. */
#define DERIVATIVES(f)                                                         \
  static void gradient_##f(const double *x, double *dx, double *y,            \
                           double *dy) {                                       \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,         \
                      enzyme_const, N);                                        \
  }                                                                            \
  static double tangent_##f(const double *x, const double *v, double *y,      \
                            double *dy) {                                      \
    return __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_dup, y, dy,    \
                            enzyme_const, N);                                  \
  }
#define CHECK_GRADIENT(f, h, tol)                                              \
  check_gradient(f, gradient_##f, tangent_##f, #f, h, tol)

static void check_gradient(objective f, gradient grad, tangent tan,
                           const char *name, double h, double tol) {
  double x[N], dx[N], v[N], dv[N], y[N], dy[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.05 * i - 0.002 * i * i;
    v[i] = cos(1.0 + i);
  }
  for (int threads = 1; threads <= 4; threads *= 2) {
    omp_set_num_threads(threads);
    for (int i = 0; i < N; ++i)
      dx[i] = dy[i] = 0;
    grad(x, dx, y, dy);
    for (int i = 0; i < N; ++i) {
      double xp[N], xm[N];
      for (int j = 0; j < N; ++j)
        xp[j] = xm[j] = x[j];
      xp[i] += h;
      xm[i] -= h;
      double fd = (f(xp, y, N) - f(xm, y, N)) / (2 * h);
      if (fabs(dx[i] - fd) > tol * (1 + fabs(fd)))
        printf("%s, %d threads, x[%d]:\n", name, threads, i);
      CHECK_CLOSE(dx[i], fd, tol);
    }
    /* forward: the tangent along v is the gradient's dot product with v */
    for (int i = 0; i < N; ++i)
      dv[i] = 0;
    double along = tan(x, v, y, dv);
    double dot = 0;
    for (int i = 0; i < N; ++i)
      dot += dx[i] * v[i];
    if (fabs(along - dot) > 1e-3 * tol * (1 + fabs(dot)))
      printf("%s, %d threads: forward against reverse\n", name, threads);
    CHECK_CLOSE(along, dot, 1e-3 * tol);
  }
}

#endif
