/* llvm.vector.reduce.fmax / fmin (clang's __builtin_reduce_max / min on
 * float vectors) in forward mode: the tangent of the selected lane. */
#include "fwd_check.h"

typedef double v4d __attribute__((vector_size(32)));

static double vmax_min(const double *p) {
  v4d a = {p[0], p[1], p[2], p[3]};
  v4d b = a * a;
  return __builtin_reduce_max(b) + __builtin_reduce_min(a);
}

int main(void) {
  double p[4] = {1, -3, 2, 0.5}, dp[4] = {1, 1, 1, 1};
  /* max of squares: 9 at p[1] -> 2 p[1]; min: p[1] -> 1 */
  CHECK_CLOSE(__enzyme_fwddiff((void *)vmax_min, p, dp), -6.0 + 1.0,
              FWD_TOL_EXACT);
  return check_finish();
}
