/* Forward-mode end-to-end helpers: the Enzyme-compatible entry points and
 * markers, and tangent checks against central finite differences and
 * analytic values.  Reuses check.h's CHECK_CLOSE / check_finish. */
#ifndef ADCC_E2E_FWD_CHECK_H
#define ADCC_E2E_FWD_CHECK_H

#include "check.h"

#ifdef __cplusplus
extern "C" {
#endif
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_width,
    enzyme_primal_return, enzyme_const_return, enzyme_noret;
double __enzyme_fwddiff(void *, ...);
#ifdef __cplusplus
}
#endif

/* Tolerances: AD against a closed form, and against central differences
 * (relative to max(1, |expected|), see CHECK_CLOSE). */
#define FWD_TOL_EXACT 1e-10
#define FWD_TOL_FD 1e-6

/* Central difference of g at t with step 1e-6 * max(1, |t|); the step
 * actually taken (after rounding) is used as the divisor. */
static inline double fd_central(double (*g)(double), double t) {
  double h = 1e-6 * (fabs(t) > 1 ? fabs(t) : 1);
  volatile double tp = t + h, tm = t - h;
  return (g(tp) - g(tm)) / (tp - tm);
}

/* Single-precision variant: a coarser step suited to float rounding. */
static inline double fd_central_f(float (*g)(float), float t) {
  float h = 4e-3f * (fabsf(t) > 1 ? fabsf(t) : 1);
  volatile float tp = t + h, tm = t - h;
  return ((double)g(tp) - (double)g(tm)) / ((double)tp - (double)tm);
}

/* A tangent checked against both the closed form and central differences
 * of the line function g at t. */
#define CHECK_TANGENT(got, exact, g, t)                                        \
  do {                                                                         \
    double got_ = (got);                                                       \
    CHECK_CLOSE(got_, (exact), FWD_TOL_EXACT);                                 \
    CHECK_CLOSE(got_, fd_central((g), (t)), FWD_TOL_FD);                       \
  } while (0)

#endif
