/* Pointers hashed into a table of integers and read back by their hash. */
#include <math.h>
#include <stdint.h>
static double f(double *x) {
  uintptr_t table[8] = {0};
  double *ptrs[3] = {x + 2, x, x + 1};
  for (int i = 0; i < 3; ++i) {
    uintptr_t u = (uintptr_t)ptrs[i];
    table[(u >> 3) & 7] = u;
  }
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    uintptr_t u = (uintptr_t)ptrs[i];
    const double *p = (const double *)table[(u >> 3) & 7];
    s += (i + 1) * p[0] * p[0];
  }
  return s;
}
#include "probe.h"
