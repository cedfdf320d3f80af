/* A pointer aligned up inside a local buffer as an integer. */
#include <math.h>
#include <stdint.h>
static double f(double *x) {
  double buf[8];
  double *a = (double *)(((uintptr_t)buf + 15) & ~(uintptr_t)15);
  for (int i = 0; i < 3; ++i)
    a[i] = x[i] * x[i];
  return a[0] * a[1] + sin(a[2]);
}
#include "probe.h"
