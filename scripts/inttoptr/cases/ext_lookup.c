/* A pointer an external function returns as an integer. */
#include <math.h>
#include <stdint.h>
uintptr_t lookup(double *x);
static double f(double *x) {
  const double *p = (const double *)lookup(x);
  return p[0] * p[1] + x[2];
}
#include "probe.h"
