/* Fixed points (docs/checkpointing.md): the gradient through
 * adcc_fixed_point, which records only the converged state and solves the
 * adjoint fixed point, against central differences and against the
 * gradient of the same iteration taped whole; forward mode against both;
 * the initial guess has no derivative; an adjoint iteration that does not
 * converge within the limit is reported at run time. */
#include "check.h"

#include <adcc.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

/* A contraction: x = g(x, p). */
static void g(double *x, const double *p) {
  double x0 = x[0], x1 = x[1], x2 = x[2];
  x[0] = 0.3 * cos(x1) + p[0];
  x[1] = 0.2 * sin(x0 * x2) + 0.5 * p[1] * x0;
  x[2] = 0.25 * x0 - 0.1 * x1 * x1 + p[2] * p[0];
}

static double objective(const double *x) {
  return x[0] * x[0] + 2 * x[1] + x[2] * x[1];
}

static double solved(const double *x0, const double *p, double tol,
                     long limit) {
  double x[3];
  memcpy(x, x0, sizeof x);
  adcc_fixed_point((void *)g, x, 3, (void *)p, 3 * sizeof *p, tol, limit);
  return objective(x);
}

/* The same iteration, taped: enough iterations to converge to rounding. */
static double taped(const double *x0, const double *p) {
  double x[3];
  memcpy(x, x0, sizeof x);
  for (int i = 0; i < 200; ++i)
    g(x, p);
  return objective(x);
}

static char reported[256];
static void keep(const char *message) {
  strncpy(reported, message, sizeof reported - 1);
}

int main(void) {
  const double p[3] = {0.4, -0.3, 0.7};
  const double x0[3] = {0, 0, 0};
  double dp[3] = {0}, dx0[3] = {0}, rp[3] = {0}, rx0[3] = {0};
  adcc_checkpoint_reset_stats();
  __enzyme_autodiff((void *)solved, enzyme_dup, x0, dx0, enzyme_dup, p, dp,
                    enzyme_const, 1e-14, enzyme_const, 500L);
  adcc_checkpoint_stats st;
  adcc_checkpoint_get_stats(&st);
  CHECK_TRUE(st.adjoint_iterations > 2 && st.adjoint_iterations < 500);
  /* one recorded step per adjoint iteration and one for p's adjoint */
  CHECK_TRUE(st.recorded == st.adjoint_iterations + 1);
  CHECK_TRUE(st.recorded_live_peak == 0);
  __enzyme_autodiff((void *)taped, enzyme_dup, x0, rx0, enzyme_dup, p, rp);
  for (int i = 0; i < 3; ++i) {
    CHECK_CLOSE(dp[i], rp[i], 1e-11);
    CHECK_TRUE(dx0[i] == 0);
    CHECK_CLOSE(rx0[i], 0, 1e-12); /* (the taped loop forgets x0 too) */
    double e = 1e-6, pp[3], pm[3];
    memcpy(pp, p, sizeof pp);
    memcpy(pm, p, sizeof pm);
    pp[i] += e;
    pm[i] -= e;
    double fd = (solved(x0, pp, 1e-14, 500) - solved(x0, pm, 1e-14, 500)) /
                (2 * e);
    CHECK_CLOSE(dp[i], fd, 1e-7);
    /* forward mode: the tangent along p_i */
    double tp[3] = {0}, tx[3] = {0};
    tp[i] = 1;
    double t = __enzyme_fwddiff((void *)solved, enzyme_dup, x0, tx,
                                enzyme_dup, p, tp, enzyme_const, 1e-14,
                                enzyme_const, 500L);
    CHECK_CLOSE(t, rp[i], 1e-11);
  }
  /* params without a shadow: nothing to accumulate, no crash */
  double cx[3] = {0};
  __enzyme_autodiff((void *)solved, enzyme_dup, x0, cx, enzyme_const, p,
                    enzyme_const, 1e-14, enzyme_const, 500L);
  CHECK_TRUE(cx[0] == 0 && cx[1] == 0 && cx[2] == 0);

  /* Started at the fixed point, the primal converges at once; the adjoint
     iteration needs more than 2 iterations: a run-time error. */
  double star[3];
  memcpy(star, x0, sizeof star);
  adcc_fixed_point((void *)g, star, 3, (void *)p, 0, 1e-15, 500);
  adcc_set_error_handler(keep);
  double ds[3] = {0}, dq[3] = {0};
  __enzyme_autodiff((void *)solved, enzyme_dup, star, ds, enzyme_dup, p, dq,
                    enzyme_const, 1e-14, enzyme_const, 2L);
  adcc_set_error_handler(NULL);
  printf("reported: %s\n", reported);
  CHECK_TRUE(strstr(reported, "adjoint iteration did not converge") != NULL);
  return check_finish();
}
