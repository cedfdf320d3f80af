/* An integer variable holding the address of a constant table or of the
 * argument, chosen at run time. */
#include <math.h>
#include <stdint.h>
static const double K[3] = {0.5, -1.0, 2.0};
static volatile int pick_v = 1;
static double f(double *x) {
  uintptr_t a = (uintptr_t)K;
  if (pick_v)
    a = (uintptr_t)x;
  const double *p = (const double *)a;
  return p[0] * p[1] + p[2] * x[0];
}
#include "probe.h"
