/* A store of an active value through a pointer from an integer
 * parameter. */
#include <math.h>
#include <stdint.h>
__attribute__((noinline)) static void put(uintptr_t u, double v) {
  *(double *)u = v;
}
static double f(double *x) {
  double y[3];
  for (int i = 0; i < 3; ++i)
    put((uintptr_t)&y[i], x[i] * x[(i + 1) % 3]);
  return y[0] + y[1] * y[2];
}
#include "probe.h"
