/* A pointer passed through a uint64_t parameter. */
#include <math.h>
#include <stdint.h>
__attribute__((noinline)) static double sumsq(uint64_t u, int n) {
  const double *p = (const double *)u;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[i] * (i + 1);
  return s;
}
static double f(double *x) { return sumsq((uint64_t)x, 3); }
#include "probe.h"
