/* The idiom corpus (probe_*.c, probe_*.cpp): each function f(const double *x)
 * is differentiated by reverse mode (__enzyme_autodiff, enzyme_dup) and by
 * forward mode along every axis (__enzyme_fwddiff), and the two are checked
 * against each other, against central differences of f and, where given,
 * against exact values (at ties and kinks, where differences average the
 * two sides). Builds on rev_check.h. */
#ifndef ADCC_E2E_PROBE_CHECK_H
#define ADCC_E2E_PROBE_CHECK_H

#include "rev_check.h"

#define PROBE_MAX 32

static inline void probe_compare(const char *name, double (*f)(const double *),
                                 double *x, int n, const double *grad,
                                 const double *tangents, const double *exact,
                                 double tol_fd) {
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    double fd = tol_fd > 0 ? fd_partial(f, x, i) : NAN;
    if (!rev_close(grad[i], tangents[i], 1e-9) ||
        (exact && !rev_close(grad[i], exact[i], 1e-9)) ||
        (tol_fd > 0 && !rev_close(grad[i], fd, tol_fd))) {
      printf("FAIL %s: d/dx%d reverse %.15g forward %.15g differences %.15g "
             "exact %.15g\n",
             name, i, grad[i], tangents[i], fd, exact ? exact[i] : NAN);
      ++check_failures;
      bad = 1;
    }
  }
  if (!bad)
    printf("%s: d/dx0 = %.12g\n", name, grad[0]);
}

/* PROBE_AT(f, n, exact, tol_fd, x0, x1, ...): the gradient of f at x;
 * exact may be NULL, tol_fd 0 skips the differences. (A macro: the
 * differentiated function must be named where it is asked for.) */
#define PROBE_AT(f, n, exact, tol_fd, ...)                                     \
  do {                                                                         \
    double x_[] = {__VA_ARGS__};                                               \
    double g_[PROBE_MAX] = {0}, t_[PROBE_MAX], fw_[PROBE_MAX];                 \
    __enzyme_autodiff((void *)f, enzyme_dup, x_, g_);                          \
    for (int i_ = 0; i_ < (n); ++i_) {                                         \
      memset(t_, 0, sizeof t_);                                                \
      t_[i_] = 1;                                                              \
      fw_[i_] = __enzyme_fwddiff((void *)f, enzyme_dup, x_, t_);               \
    }                                                                          \
    probe_compare(#f, f, x_, (n), g_, fw_, (exact), (tol_fd));                 \
  } while (0)
#define PROBE(f, n, ...) PROBE_AT(f, n, NULL, REV_TOL_FD, __VA_ARGS__)

#endif
