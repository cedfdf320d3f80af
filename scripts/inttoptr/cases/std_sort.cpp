// Pointers sorted with std::sort (integers at -O2?), read through.
#include <algorithm>
#include <cstdint>
#include <cmath>
using std::sin;
static double f(double *x) {
  double *a[3] = {x + 2, x, x + 1};
  std::sort(a, a + 3);
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += (i + 1) * sin(*a[i]);
  return s;
}
#include "probe.h"
