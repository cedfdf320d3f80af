/* A tagged pointer passed to a function that takes the tag off. */
#include <math.h>
#include <stdint.h>
__attribute__((noinline)) static double untag(uintptr_t u) {
  const double *p = (const double *)(u & ~(uintptr_t)3);
  return p[0] * p[1] + sin(p[2]);
}
static double f(double *x) { return untag((uintptr_t)x | 2); }
#include "probe.h"
