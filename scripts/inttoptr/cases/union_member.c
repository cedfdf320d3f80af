/* A pointer in a union with an integer member, read as the integer. */
#include <math.h>
#include <stdint.h>
union slot {
  double *p;
  uintptr_t u;
};
__attribute__((noinline)) static double read_u(union slot *s) {
  const double *q = (const double *)s->u;
  return q[0] * q[2] + q[1];
}
static double f(double *x) {
  union slot s;
  s.p = x;
  return read_u(&s) * x[1];
}
#include "probe.h"
