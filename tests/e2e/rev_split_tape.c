/* Regression: enzyme_allocated / enzyme_tape are parsed and
 * ignored by __enzyme_augmentfwd, so the handle never reaches the caller's
 * buffer and the matching reverse sweep stops the program:
 *   adcc runtime: error: __enzyme_reverse was given a tape that is not the
 *   most recent augmented sweep on this thread: ...
 * (every spelling of the reverse call: with `enzyme_allocated, sz,
 * enzyme_tape, buf`, with `buf` as the last argument, or `*(void **)buf`).
 * docs/reverse-mode.md says these markers are accepted.  Expected: the
 * augmented sweep stores its handle into the caller's tape buffer (size
 * __enzyme_augmentsize) and __enzyme_reverse reads it from there, or a
 * compile-time error. */
#include "rev_check.h"

extern int enzyme_allocated, enzyme_tape;
void __enzyme_augmentfwd_v(void *, ...);
double __enzyme_reverse(void *, ...);
unsigned long __enzyme_augmentsize(void *, ...);

static double f(const double *p) { return p[0] * p[0] * p[1]; }

int main(void) {
  double p[2] = {1.5, 2}, dp[2] = {0};
  unsigned long sz = __enzyme_augmentsize((void *)f, enzyme_dup);
  void *buf[8];
  CHECK_TRUE(sz <= sizeof buf);
  __enzyme_augmentfwd_v((void *)f, enzyme_allocated, sz, enzyme_tape, buf,
                        enzyme_dup, p, dp);
  __enzyme_reverse((void *)f, enzyme_allocated, sz, enzyme_tape, buf,
                   enzyme_dup, p, dp, 1.0);
  CHECK_CLOSE(dp[0], 6.0, REV_TOL_EXACT);
  CHECK_CLOSE(dp[1], 2.25, REV_TOL_EXACT);
  return check_finish();
}
