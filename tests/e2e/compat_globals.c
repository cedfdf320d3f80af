/* Globals as numerical libraries use them: constant tables and parameters
 * read by the differentiated code, an int call counter and a statistics
 * struct of ints written by it (no derivative, no mark), and a scratch
 * buffer marked inactive with Enzyme's attribute. */
#include "check.h"

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static const double weights[4] = {0.5, -1.25, 2.0, 0.75};
double scale = 1.5;
int evaluations;
struct {
  int calls, terms;
} stats;
__attribute__((enzyme_inactive)) double scratch[4];

static double poly(const double *x, int n) {
  ++evaluations;
  stats.calls += 1;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    scratch[i] = x[i];
    s += weights[i] * x[i] * x[i] * scale;
    stats.terms++;
  }
  return s;
}

int main(void) {
  double x[4] = {1, 2, -1, 0.5}, dx[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)poly, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; ++i) {
    CHECK_CLOSE(dx[i], 2 * weights[i] * x[i] * scale, 1e-14);
    double t[4] = {0, 0, 0, 0};
    t[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)poly, enzyme_dup, x, t, enzyme_const,
                                 4),
                dx[i], 1e-14);
  }
  /* the counters ran in each derivative call */
  CHECK_TRUE(evaluations == 5 && stats.calls == 5 && stats.terms == 20);
  return check_finish();
}
