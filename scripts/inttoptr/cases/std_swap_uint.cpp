// Two addresses kept as uintptr_t exchanged with std::swap, read through.
#include <cmath>
#include <cstdint>
#include <utility>
using std::sin;
static double f(double *x) {
  uintptr_t a = uintptr_t(x), b = uintptr_t(x + 2);
  if (x[1] > 0)
    std::swap(a, b);
  return sin(*(const double *)a) * 2 + *(const double *)b * x[1];
}
#include "probe.h"
