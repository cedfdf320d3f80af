// Two addresses kept as uintptr_t, one replaced by std::exchange, read
// through.
#include <cmath>
#include <cstdint>
#include <utility>
using std::sin;
static double f(double *x) {
  uintptr_t a = uintptr_t(x), b = uintptr_t(x + 2);
  uintptr_t old = std::exchange(a, b);
  return sin(*(const double *)a) * 2 + *(const double *)old * x[1];
}
#include "probe.h"
