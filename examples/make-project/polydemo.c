/* polydemo.c - evaluates a polynomial and its derivative on a grid, counts
 * the sign changes of p (bracketed roots) and prints a checksum. */
#include "checksum.h"
#include "poly.h"

#include <stdio.h>

int main(void) {
  /* p(x) = x (x - 1)(x + 2)(x - 0.5)(x + 1.5)
   *      = x^5 + 2x^4 - 1.75x^3 - 2.75x^2 + 1.5x,
   * with roots -2, -1.5, 0, 0.5 and 1 */
  const double p[] = {0.0, 1.5, -2.75, -1.75, 2.0, 1.0};
  const size_t degree = sizeof p / sizeof p[0] - 1;
  double dp[sizeof p / sizeof p[0]];
  size_t ddegree = poly_derive(p, degree, dp);

  checksum_t sum;
  checksum_init(&sum);
  int sign_changes = 0;
  double prev = 0.0;
  for (int k = -12; k <= 12; ++k) {
    double x = k * 0.1875; /* dyadic grid: every value is exact */
    double px = poly_eval(p, degree, x);
    double dpx = poly_eval(dp, ddegree, x);
    if (k > -12 && ((prev < 0.0 && px >= 0.0) || (prev > 0.0 && px <= 0.0)))
      ++sign_changes;
    prev = px;
    checksum_add(&sum, px);
    checksum_add(&sum, dpx);
  }
  printf("p(0.5)  = %.17g\n", poly_eval(p, degree, 0.5));
  printf("p'(0.5) = %.17g\n", poly_eval(dp, ddegree, 0.5));
  printf("p'(2)   = %.17g\n", poly_eval(dp, ddegree, 2.0));
  printf("sign changes on grid: %d\n", sign_changes);
  printf("checksum: %016llx\n", (unsigned long long)sum.state);
  return 0;
}
