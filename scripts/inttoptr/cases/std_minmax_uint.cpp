// The lower and higher of two addresses kept as uintptr_t (std::min,
// std::max), read through.
#include <algorithm>
#include <cmath>
#include <cstdint>
using std::sin;
static double f(double *x) {
  uintptr_t a = uintptr_t(x), b = uintptr_t(x + 2);
  uintptr_t lo = std::min(a, b), hi = std::max(a, b);
  return sin(*(const double *)lo) * 2 + *(const double *)hi * x[1];
}
#include "probe.h"
