// Addresses kept as uintptr_t in a std::vector that grows (reallocation
// moves them), read through.
#include <cmath>
#include <cstdint>
#include <vector>
using std::sin;
static double f(double *x) {
  std::vector<uintptr_t> v;
  for (int r = 0; r < 4; ++r)
    for (int i = 2; i >= 0; --i)
      v.push_back(uintptr_t(x + i));
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i % 5 + 1) * sin(*(const double *)v[i]);
  return s;
}
#include "probe.h"
