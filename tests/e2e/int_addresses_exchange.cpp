// Addresses kept as uintptr_t, returned by value by the C++ library's
// helpers (issue 33), in reverse and forward mode: std::exchange of two
// addresses, whose old value it returns, and std::max and std::min of an
// initializer list of three, which return the element they pick. At -O0
// the helpers are calls that see numbers, and the integer they return had
// no shadow: a located error until 2026-12-07 ("the address of memory with
// derivatives is kept in an integer variable"). Each gradient against
// central differences, the analytic values and the tangents, at -O0 to
// -O3.
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

// a becomes x + 2's address, old keeps x's: f = 2 sin(x2) + x0 x1.
static double exchangeTwo(double *x) {
  uintptr_t a = uintptr_t(x), b = uintptr_t(x + 2);
  uintptr_t old = std::exchange(a, b);
  return 2 * std::sin(at(a)) + at(old) * x[1];
}

// Exchanged twice, the second time with a fresh address: a ends as x + 1's,
// the first old value is x's, the second x + 2's: f = x1 x0^2 + x2.
static double exchangeChain(double *x) {
  uintptr_t a = uintptr_t(x), b = uintptr_t(x + 2);
  uintptr_t first = std::exchange(a, b);
  uintptr_t second = std::exchange(a, uintptr_t(x + 1));
  return at(a) * at(first) * at(first) + at(second);
}

// The highest and lowest of three: f = sin(x2) x0.
static double maxOfList(double *x) {
  uintptr_t a = uintptr_t(x + 1), b = uintptr_t(x + 2), c = uintptr_t(x);
  uintptr_t hi = std::max({a, b, c});
  uintptr_t lo = std::min({a, b, c});
  return std::sin(at(hi)) * at(lo);
}

#include "int_addresses_check.h"

int main() {
  const double *x0 = int_addresses_x0;
  const double wantTwo[N] = {x0[1], x0[0], 2 * std::cos(x0[2])};
  const double wantChain[N] = {2 * x0[1] * x0[0], x0[0] * x0[0], 1};
  const double wantList[N] = {std::sin(x0[2]), 0, x0[0] * std::cos(x0[2])};
  check_gradient(exchangeTwo, "std::exchange", wantTwo);
  check_gradient(exchangeChain, "std::exchange twice", wantChain);
  check_gradient(maxOfList, "std::max of a list", wantList);
  return check_finish();
}
