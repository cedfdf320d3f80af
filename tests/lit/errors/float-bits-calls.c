// A double's bits passed to or returned from a function as an integer:
// reverse mode does not follow them across calls yet, and says so at the
// call (it gave a zero gradient before); forward mode follows them
// (tests/e2e/fwd_float_bits.c), except into integer memory without shadow
// (a part of the bits kept in an integer variable at -O0), an error too.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <stdint.h>
#include <string.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) uint64_t to_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
__attribute__((noinline)) double from_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}

// CHECK: float-bits-calls.c:[[@LINE+1]]:39: error: cannot differentiate 'f' in reverse mode: 'to_bits' returns the bits of a floating-point value with a derivative as an integer; reverse mode does not follow derivatives through integers across calls yet (forward mode does)
double f(double x) { return from_bits(to_bits(x * x)); }
double df(double x) { return __enzyme_autodiff((void *)f, x); }

double g(double x) {
  double y = x * x;
  uint64_t u;
  memcpy(&u, &y, sizeof u);
  // CHECK: float-bits-calls.c:[[@LINE+1]]:10: error: cannot differentiate 'g' in reverse mode: the bits of a floating-point value with a derivative are passed to 'from_bits' as an integer (argument 1)
  return from_bits(u);
}
double dg(double x) { return __enzyme_autodiff((void *)g, x); }

double h(double x) {
  uint64_t u = to_bits(x * x);
  // O0: float-bits-calls.c:[[@LINE+1]]:12: error: cannot differentiate 'h' in forward mode: the bits of a floating-point value with a derivative are stored as an integer into memory that holds no derivative
  uint32_t hi = u >> 32, lo = (uint32_t)u;
  return from_bits(((uint64_t)hi << 32) | lo);
}
double dh(double x) { return __enzyme_fwddiff((void *)h, x, 1.0); }
