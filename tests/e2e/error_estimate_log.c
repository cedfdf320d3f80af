/* __enzyme_error_estimate's enzymeLogError callback: each estimate of a
 * value that can reach the function's result is reported once per
 * evaluation, with its value, its estimate and the math function called;
 * a value that is only printed (here through snprintf into a buffer) is not
 * reported, as in Enzyme. Before, adcc reported it too. The estimates
 * reported are checked against the recurrence of docs/forward-mode.md
 * written out by hand, at every level. */
#include "check.h"

#include <float.h>
#include <string.h>

double __enzyme_error_estimate(void *, ...);

static int reports, sin_reports;
static double last_value, last_error, cos_value, cos_error;

void enzymeLogError(double value, double error, const char *operation,
                    const char *callee, const char *module,
                    const char *function, const char *block) {
  (void)module, (void)function, (void)block, (void)operation;
  ++reports;
  if (strcmp(callee, "sin") == 0 || strncmp(callee, "llvm.sin", 8) == 0)
    ++sin_reports;
  if (strcmp(callee, "cos") == 0 || strncmp(callee, "llvm.cos", 8) == 0) {
    cos_value = value;
    cos_error = error;
  }
  last_value = value;
  last_error = error;
}

static char text[64];

/* (1 - cos x) / x^2: four operations reach the result; sin(v4) only goes
 * into a string */
__attribute__((noinline)) static double ratio(double x) {
  double v1 = cos(x);
  double v2 = 1 - v1;
  double v3 = x * x;
  double v4 = v2 / v3;
  double v5 = sin(v4);
  snprintf(text, sizeof text, "%.3f", v5);
  return v4;
}

static double ulp(double f) { return fabs(nextafter(f, INFINITY) - f); }

int main(void) {
  double x = 1e-3;
  double e = __enzyme_error_estimate((void *)ratio, x, 0.0);
  CHECK_TRUE(reports == 4);
  CHECK_TRUE(sin_reports == 0);
  /* the last report is the result's: value and estimate of the request */
  CHECK_CLOSE(last_value, ratio(x), 1e-15);
  CHECK_CLOSE(last_error, e, 1e-15);
  /* cos(x) of an exact x: its ulp */
  CHECK_CLOSE(cos_value, cos(x), 1e-15);
  CHECK_CLOSE(cos_error, ulp(cos(x)), 1e-12);
  /* the recurrence e(f) = max(ulp(f), sum_i |df/dx_i e_i x_i / f|):
   * e2 = max(ulp(v2), |e1 v1 / v2|), e3 = ulp(v3) (x exact),
   * e4 = max(ulp(v4), e2 + e3) (for a quotient the terms are e2, e3) */
  double v1 = cos(x), v2 = 1 - v1, v3 = x * x, v4 = v2 / v3;
  double e2 = fmax(ulp(v2), fabs(ulp(v1) * v1 / v2));
  double e3 = ulp(v3);
  double e4 = fmax(ulp(v4), e2 + e3);
  CHECK_CLOSE(e / e4, 1.0, 1e-12);
  return check_finish();
}
