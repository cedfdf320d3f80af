// Two addresses kept as uintptr_t in an array exchanged with
// std::iter_swap, read through.
#include <algorithm>
#include <cmath>
#include <cstdint>
using std::sin;
static double f(double *x) {
  uintptr_t a[3] = {uintptr_t(x), uintptr_t(x + 1), uintptr_t(x + 2)};
  if (x[1] > 0)
    std::iter_swap(a, a + 2);
  return sin(*(const double *)a[0]) * 2 + *(const double *)a[2] * x[1] +
         *(const double *)a[1];
}
#include "probe.h"
