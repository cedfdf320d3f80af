/* Reverse mode where the way into a block after a branch is rebuilt from
 * the branch's condition instead of recorded: guards on arguments
 * (`if (n > 1) for ...`), conditions on the loop counter (`i % 3 == 0`),
 * on loop-invariant values, nested diamonds; and conditions that must stay
 * recorded (on values loaded from memory the function overwrites). Central
 * differences and forward mode (dot-product test). */
#include "rev_check.h"

#define N 7

/* (Not inlined, and called with sizes the compiler cannot see, so that its
 * conditions stay conditions on its arguments.) */
static volatile int sizes[4] = {N, 3, 1, 1};

__attribute__((noinline)) static double guarded(double *u, int n, int m) {
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    if (n > 1)
      for (int i = 1; i < n; ++i)
        u[i] = u[i] * 0.9 + 0.1 * u[i - 1] * u[i - 1];
    if (m > 2)
      s += u[0] * u[n - 1];
    else
      s -= sin(u[0]);
    for (int i = 0; i < n; ++i) {
      if (i % 3 == 0)
        s += u[i] * u[i];
      else if (i % 3 == 1)
        s += cos(u[i]) * k;
      else
        s -= u[i] * 0.5;
    }
    /* on overwritten data: recorded */
    if (u[1] > 0.3)
      u[2] = u[2] * u[1];
    else
      u[2] = u[2] + u[1];
  }
  return s;
}

static double g3(const double *x) {
  double u[N];
  memcpy(u, x, sizeof u);
  return guarded(u, sizes[0], sizes[1]);
}
static double g1(const double *x) {
  double u[N];
  memcpy(u, x, sizeof u);
  return guarded(u, sizes[2], sizes[3]);
}

int main(void) {
  for (int rep = 0; rep < 3; ++rep) {
    CHECK_GRAD_AND_DOT(g3, N, 0.8);
    CHECK_GRAD_AND_DOT(g1, N, 0.8);
  }
  return check_finish();
}
