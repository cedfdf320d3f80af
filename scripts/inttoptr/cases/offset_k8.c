/* An element's address computed as an integer, u + k * 8. */
#include <math.h>
#include <stdint.h>
static double f(double *x) {
  uintptr_t u = (uintptr_t)x;
  double s = 0;
  for (int k = 0; k < 3; ++k)
    s += (k + 1) * sin(*(const double *)(u + k * 8));
  return s;
}
#include "probe.h"
