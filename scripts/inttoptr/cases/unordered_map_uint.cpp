// Weights keyed by addresses kept as uintptr_t in a std::unordered_map;
// the keys are read back as pointers.
#include <cmath>
#include <cstdint>
#include <unordered_map>
using std::sin;
static double f(double *x) {
  std::unordered_map<uintptr_t, double> w;
  for (int i = 0; i < 3; ++i)
    w[uintptr_t(x + i)] = i + 1;
  double s = 0;
  for (auto &[k, v] : w)
    s += v * sin(*(const double *)k);
  return s + w[uintptr_t(x + 1)] * x[1];
}
#include "probe.h"
