/* An offset computed as u + i*stride with a stride read at run time. */
#include <math.h>
#include <stdint.h>
static volatile int stride_v = 8;
static double f(double *x) {
  uintptr_t u = (uintptr_t)x;
  uintptr_t st = (uintptr_t)stride_v;
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += (i + 2) * *(const double *)(u + i * st) * x[i];
  return s;
}
#include "probe.h"
