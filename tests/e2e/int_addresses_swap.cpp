// Addresses kept as uintptr_t and exchanged by a function that takes the
// integers by reference and does not inline (issue 33), in reverse and
// forward mode:
//  (a) std::swap of two variables (at -O0 the library's
//      swap<unsigned long>, which sees numbers: until 2026-12-07 the
//      shadows stayed where they were, a wrong derivative without an error);
//  (b) std::iter_swap of two elements of an array;
//  (c) std::swap of two elements of an array;
//  (d) the program's own exchange by reference, never inlined (wrong at
//      every level until 2026-12-07).
// Each gradient against central differences, the analytic values and the
// tangents, at -O0 to -O3.
#include "check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

enum { N = 3 };

// (A macro: an address passed by value is an integer parameter.)
#define at(a) (*(const double *)(a))

// Each case exchanges the addresses of x[0] and x[2] when x[1] > 0: f is
// then 2 sin(x2) + x0 x1 + x1.
static double stdSwap(double *x) {
  uintptr_t a = uintptr_t(x), b = uintptr_t(x + 2);
  if (x[1] > 0)
    std::swap(a, b);
  return 2 * std::sin(at(a)) + at(b) * x[1] + x[1];
}

static double iterSwap(double *x) {
  uintptr_t a[N] = {uintptr_t(x), uintptr_t(x + 1), uintptr_t(x + 2)};
  if (x[1] > 0)
    std::iter_swap(a, a + 2);
  return 2 * std::sin(at(a[0])) + at(a[2]) * x[1] + at(a[1]);
}

static double swapElements(double *x) {
  uintptr_t a[N] = {uintptr_t(x), uintptr_t(x + 1), uintptr_t(x + 2)};
  if (x[1] > 0)
    std::swap(a[0], a[2]);
  return 2 * std::sin(at(a[0])) + at(a[2]) * x[1] + at(a[1]);
}

__attribute__((noinline)) static void exchange(uintptr_t &a, uintptr_t &b) {
  uintptr_t t = a;
  a = b;
  b = t;
}

static double ownExchange(double *x) {
  uintptr_t a = uintptr_t(x), b = uintptr_t(x + 2);
  if (x[1] > 0)
    exchange(a, b);
  return 2 * std::sin(at(a)) + at(b) * x[1] + x[1];
}

#include "int_addresses_check.h"

int main() {
  const double want[N] = {int_addresses_x0[1], int_addresses_x0[0] + 1,
                         2 * std::cos(int_addresses_x0[2])};
  check_gradient(stdSwap, "std::swap", want);
  check_gradient(iterSwap, "std::iter_swap", want);
  check_gradient(swapElements, "std::swap of elements", want);
  check_gradient(ownExchange, "exchange(uintptr_t &, uintptr_t &)", want);
  return check_finish();
}
