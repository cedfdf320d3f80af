/* The check of a gradient g of f(double *x) over its n inputs: each entry
 * against the analytic value want[i] (to 1e-6), against central
 * differences of step h (to fd_tol), and forward mode along the unit
 * direction e_i against it (to 1e-9). f must be a function's name (the
 * forward-mode request names its target). Include check.h first; the file
 * declares __enzyme_fwddiff and enzyme_dup. */
#ifndef ADCC_E2E_GRADIENT_CHECK_H
#define ADCC_E2E_GRADIENT_CHECK_H

#include <string.h>

#define CHECK_GRADIENT(f, x, g, want, n, h, fd_tol)                            \
  for (int i_ = 0; i_ < (n); ++i_) {                                           \
    double xp_[n], xm_[n], e_[n];                                              \
    memcpy(xp_, (x), sizeof xp_);                                              \
    memcpy(xm_, (x), sizeof xm_);                                              \
    memset(e_, 0, sizeof e_);                                                  \
    xp_[i_] += (h);                                                            \
    xm_[i_] -= (h);                                                            \
    e_[i_] = 1;                                                                \
    CHECK_CLOSE((g)[i_], (want)[i_], 1e-6);                                    \
    CHECK_CLOSE((g)[i_], (f(xp_) - f(xm_)) / (2 * (h)), (fd_tol));             \
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, (x), e_), (g)[i_],     \
                1e-9);                                                         \
  }

#endif
