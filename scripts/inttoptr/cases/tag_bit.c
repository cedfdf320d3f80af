/* A tagged pointer: the low bit set, then masked off. */
#include <math.h>
#include <stdint.h>
static double f(double *x) {
  uintptr_t u = (uintptr_t)x | 1;
  const double *p = (const double *)(u & ~(uintptr_t)1);
  return p[0] * p[1] + sin(p[2]);
}
#include "probe.h"
