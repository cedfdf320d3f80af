/* An xor-linked pair: the link holds a ^ b; b recovered from it. */
#include <math.h>
#include <stdint.h>
static double f(double *x) {
  double y[3] = {x[0] * 2, x[1], x[2] * x[2]};
  uintptr_t link = (uintptr_t)x ^ (uintptr_t)y;
  const double *b = (const double *)(link ^ (uintptr_t)x);
  return b[0] * b[1] + b[2] * x[1];
}
#include "probe.h"
