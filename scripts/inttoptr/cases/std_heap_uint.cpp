// Addresses kept as uintptr_t sorted with std::make_heap and std::sort_heap.
#include <algorithm>
#include <cmath>
#include <cstdint>
using std::sin;
static double f(double *x) {
  uintptr_t a[3] = {uintptr_t(x + 2), uintptr_t(x), uintptr_t(x + 1)};
  std::make_heap(a, a + 3);
  std::sort_heap(a, a + 3);
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += (i + 1) * sin(*(const double *)a[i]) * x[i];
  return s;
}
#include "probe.h"
