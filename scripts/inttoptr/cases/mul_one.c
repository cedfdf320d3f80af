/* An address kept in an integer variable, multiplied by a run-time one. */
#include <math.h>
#include <stdint.h>
static volatile uintptr_t one_v = 1;
static double f(double *x) {
  uintptr_t a = (uintptr_t)x;
  uintptr_t one = one_v;
  a = a * one + 8;
  const double *p = (const double *)a;
  return p[0] * p[1] * x[0];
}
#include "probe.h"
