/* An address kept in an integer variable, changed by xor. */
#include <math.h>
#include <stdint.h>
static double f(double *x) {
  _Alignas(16) double y[4] = {x[0], x[1] * x[1], x[2], x[0] * x[2]};
  uintptr_t a = (uintptr_t)y;
  a ^= sizeof(double);
  const double *p = (const double *)a;
  return p[0] * p[2] + sin(x[1]);
}
#include "probe.h"
