// Two addresses kept as uintptr_t exchanged by a helper taking references,
// never inlined.
#include <cmath>
#include <cstdint>
using std::sin;
__attribute__((noinline)) static void xchg(uintptr_t &a, uintptr_t &b) {
  uintptr_t t = a;
  a = b;
  b = t;
}
static double f(double *x) {
  uintptr_t a = uintptr_t(x), b = uintptr_t(x + 2);
  if (x[1] > 0)
    xchg(a, b);
  return sin(*(const double *)a) * 2 + *(const double *)b * x[1];
}
#include "probe.h"
