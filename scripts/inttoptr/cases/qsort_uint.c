/* Pointers kept as uintptr_t, sorted with qsort and a comparator. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b) {
  uintptr_t u = *(const uintptr_t *)a, v = *(const uintptr_t *)b;
  return (u > v) - (u < v);
}
static double f(double *x) {
  uintptr_t a[3] = {(uintptr_t)(x + 2), (uintptr_t)x, (uintptr_t)(x + 1)};
  qsort(a, 3, sizeof a[0], cmp);
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += (i + 1) * sin(*(const double *)a[i]) * x[i];
  return s;
}
#include "probe.h"
