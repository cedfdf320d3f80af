/* A pointer kept in a global integer and read back in a callee. */
#include <math.h>
#include <stdint.h>
uintptr_t stash;
__attribute__((noinline)) static double read_stash(void) {
  const double *p = (const double *)stash;
  return p[0] * p[1] + p[2];
}
static double f(double *x) {
  stash = (uintptr_t)x;
  return read_stash() * x[0];
}
#include "probe.h"
