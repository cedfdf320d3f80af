/* A pointer an external function returns as an integer, from an
 * integer argument. */
#include <math.h>
#include <stdint.h>
uintptr_t lookup_u(uintptr_t u);
static double f(double *x) {
  const double *p = (const double *)lookup_u((uintptr_t)x);
  return p[0] * p[1] + x[2];
}
#include "probe.h"
