/* Numerical checks for end-to-end programs: count failures, report each
 * with its values, finish with "ok" or a non-zero exit. */
#ifndef ADCC_E2E_CHECK_H
#define ADCC_E2E_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures = 0;

/* |got - want| <= tol * max(1, |want|) */
#define CHECK_CLOSE(got, want, tol)                                            \
  do {                                                                         \
    double g_ = (got), w_ = (want);                                            \
    double s_ = fabs(w_) > 1 ? fabs(w_) : 1;                                   \
    if (!(fabs(g_ - w_) <= (tol) * s_)) {                                      \
      printf("FAIL %s:%d: %s = %.17g, expected %.17g\n", __FILE__, __LINE__,  \
             #got, g_, w_);                                                    \
      ++check_failures;                                                        \
    }                                                                          \
  } while (0)

#define CHECK_TRUE(cond)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                   \
      ++check_failures;                                                        \
    }                                                                          \
  } while (0)

static int check_finish(void) {
  if (check_failures) {
    printf("%d check(s) failed\n", check_failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}

#endif
