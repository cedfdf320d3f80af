// Three addresses kept as uintptr_t, the highest and lowest picked by
// std::max and std::min of an initializer list (returned by value), read
// through.
#include <algorithm>
#include <cmath>
#include <cstdint>
static double f(double *x) {
  uintptr_t a = uintptr_t(x + 1), b = uintptr_t(x + 2), c = uintptr_t(x);
  uintptr_t hi = std::max({a, b, c});
  uintptr_t lo = std::min({a, b, c});
  return std::sin(*(const double *)hi) * *(const double *)lo;
}
#include "probe.h"
