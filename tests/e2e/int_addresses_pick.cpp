// Addresses kept as uintptr_t in local variables that the caller itself
// never reads as addresses, passed by reference to the C++ library's
// helpers that pick one of them (issue 33), in reverse and forward mode:
// std::min and std::max of two addresses, whose reference returned points
// into one of the two variables, and nested: the reference one returns
// passed to the next (the median of three). At -O0 the helpers are calls
// that see numbers; the variables the caller only passed had no shadow, a
// located error until 2026-12-07 ("read or written through a pointer made
// from an integer"). Each gradient against central differences, the
// analytic values and the tangents, at -O0 to -O3.
#include "check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

enum { N = 3 };

#define at(a) (*(const double *)(a))

// The lower address is x's, the higher x + 2's: f = 2 sin(x0) + x2 x1.
static double minMax(double *x) {
  uintptr_t a = uintptr_t(x + 2), b = uintptr_t(x);
  uintptr_t lo = std::min(a, b), hi = std::max(a, b);
  return 2 * std::sin(at(lo)) + at(hi) * x[1];
}

// The highest, lowest and median of three: f = x2 (x0 + x1).
static double maxOfThree(double *x) {
  uintptr_t a = uintptr_t(x + 1), b = uintptr_t(x + 2), c = uintptr_t(x);
  uintptr_t hi = std::max(std::max(a, b), c);
  uintptr_t lo = std::min(std::min(a, b), c);
  uintptr_t mid = std::max(std::min(a, b), std::min(std::max(a, b), c));
  return at(hi) * (at(lo) + at(mid));
}

#include "int_addresses_check.h"

int main() {
  const double *x0 = int_addresses_x0;
  const double wantMinMax[N] = {2 * std::cos(x0[0]), x0[2], x0[1]};
  const double wantThree[N] = {x0[2], x0[2], x0[0] + x0[1]};
  check_gradient(minMax, "std::min, std::max", wantMinMax);
  check_gradient(maxOfThree, "std::max of three", wantThree);
  return check_finish();
}
