/* Pointers sorted by their integer value, then read through. */
#include <math.h>
#include <stdint.h>
static double f(double *x) {
  uintptr_t a[3] = {(uintptr_t)(x + 2), (uintptr_t)x, (uintptr_t)(x + 1)};
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (a[j] < a[i]) {
        uintptr_t t = a[i];
        a[i] = a[j];
        a[j] = t;
      }
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += (i + 1) * sin(*(const double *)a[i]);
  return s;
}
#include "probe.h"
