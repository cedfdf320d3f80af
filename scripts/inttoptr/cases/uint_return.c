/* A pointer returned as a uint64_t. */
#include <math.h>
#include <stdint.h>
__attribute__((noinline)) static uint64_t second(double *x) {
  return (uint64_t)(x + 1);
}
static double f(double *x) {
  const double *p = (const double *)second(x);
  return p[0] * p[1] * x[0];
}
#include "probe.h"
