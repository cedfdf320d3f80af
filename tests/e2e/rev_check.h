/* Reverse-mode end-to-end helpers: __enzyme_autodiff and its markers, and
 * gradient checks against closed forms, central differences and forward
 * mode (dot-product test).  Builds on fwd_check.h / check.h. */
#ifndef ADCC_E2E_REV_CHECK_H
#define ADCC_E2E_REV_CHECK_H

#include "fwd_check.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif
extern int enzyme_out;
double __enzyme_autodiff(void *, ...);
float __enzyme_autodiff_f(void *, ...);
void __enzyme_autodiff_void(void *, ...);
float __enzyme_fwddiff_f(void *, ...);
typedef struct {
  double a, b;
} rev_two;
typedef struct {
  double a, b, c;
} rev_three;
rev_two __enzyme_autodiff2(void *, ...);
rev_three __enzyme_autodiff3(void *, ...);
#ifdef __cplusplus
}
#endif

#define REV_TOL_EXACT 1e-10
#define REV_TOL_FD 1e-6
#define REV_TOL_DOT 1e-11

/* deterministic pseudo-random numbers in [-1, 1) */
static unsigned long long rev_rng = 0x9E3779B97F4A7C15ULL;
static inline double rev_rand(void) {
  rev_rng ^= rev_rng << 13;
  rev_rng ^= rev_rng >> 7;
  rev_rng ^= rev_rng << 17;
  return (double)(rev_rng >> 11) / 4503599627370496.0 - 1.0;
}

/* central difference of f: R^n -> R in coordinate i at x (x is restored) */
static inline double fd_partial(double (*f)(const double *), double *x, int i) {
  double saved = x[i];
  double h = 1e-6 * (fabs(saved) > 1 ? fabs(saved) : 1);
  volatile double tp = saved + h, tm = saved - h;
  x[i] = tp;
  double up = f(x);
  x[i] = tm;
  double down = f(x);
  x[i] = saved;
  return (up - down) / (tp - tm);
}

static inline void rev_fail(const char *file, int line, const char *what, int i,
                            double got, double want) {
  printf("FAIL %s:%d: %s[%d] = %.17g, expected %.17g\n", file, line, what, i,
         got, want);
  ++check_failures;
}

static inline int rev_close(double got, double want, double tol) {
  double s = fabs(want) > 1 ? fabs(want) : 1;
  return fabs(got - want) <= tol * s;
}

/* grad[0..n) against exact[0..n) (when not null) and against central
 * differences of f at x */
static inline void rev_check_grad(const char *file, int line, const char *what,
                                  double (*f)(const double *), double *x, int n,
                                  const double *grad, const double *exact,
                                  double tol_fd) {
  for (int i = 0; i < n; ++i) {
    if (exact && !rev_close(grad[i], exact[i], REV_TOL_EXACT))
      rev_fail(file, line, what, i, grad[i], exact[i]);
    double fd = fd_partial(f, x, i);
    if (!rev_close(grad[i], fd, tol_fd))
      rev_fail(file, line, what, i, grad[i], fd);
  }
}
#define CHECK_GRAD(f, x, n, grad, exact)                                       \
  rev_check_grad(__FILE__, __LINE__, #grad, (f), (x), (n), (grad), (exact),    \
                 REV_TOL_FD)
#define CHECK_GRAD_TOL(f, x, n, grad, exact, tol)                              \
  rev_check_grad(__FILE__, __LINE__, #grad, (f), (x), (n), (grad), (exact),    \
                 (tol))

/* dot-product test: <grad, v> against the forward tangent along v */
static inline void rev_check_dot(const char *file, int line, const char *what,
                                 const double *grad, const double *v, int n,
                                 double tangent) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += grad[i] * v[i];
  if (!rev_close(s, tangent, REV_TOL_DOT))
    rev_fail(file, line, what, -1, s, tangent);
}
/* fills v[0..n) with a random direction and returns <grad, v> */
static inline double rev_dir(const double *grad, double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    v[i] = rev_rand();
    s += grad[i] * v[i];
  }
  return s;
}

/* The gradient of f: R^n -> R (n <= 64) at a random point with coordinates
 * in [-scale, scale): against central differences and, along a random
 * direction, against forward mode; prints d/dx0. (A macro: the
 * differentiated function must be known where it is asked for.) */
#define CHECK_GRAD_AND_DOT(f, n, scale)                                        \
  do {                                                                         \
    double x_[64], g_[64] = {0}, v_[64];                                       \
    for (int i_ = 0; i_ < (n); ++i_)                                           \
      x_[i_] = (scale) * rev_rand();                                           \
    __enzyme_autodiff((void *)f, x_, g_);                                      \
    CHECK_GRAD(f, x_, (n), g_, NULL);                                          \
    double dir_ = rev_dir(g_, v_, (n));                                        \
    CHECK_CLOSE(dir_, __enzyme_fwddiff((void *)f, x_, v_), REV_TOL_DOT);       \
    printf("%s: d/dx0 = %.12f\n", #f, g_[0]);                                 \
  } while (0)

#define CHECK_DOT(grad, v, n, tangent)                                         \
  rev_check_dot(__FILE__, __LINE__, "<" #grad ", " #v ">", (grad), (v), (n),   \
                (tangent))

#endif
