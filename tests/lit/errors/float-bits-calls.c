// A double's bits passed to or returned from a function as an integer: such
// calls call a copy of the function that takes (returns) the double itself,
// in both modes (tests/e2e/rev_float_bits_calls.c). What is left is an error
// at the call: a function that may be replaced at link time (it cannot be
// copied), and, at -O0, a part of the bits kept in an integer variable.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
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
__attribute__((weak, noinline)) double from_bits_weak(uint64_t u) {
  double x;
  memcpy(&x, &u, sizeof x);
  return x;
}
__attribute__((weak, noinline)) uint64_t to_bits_weak(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

double g(double x) {
  double y = x * x;
  uint64_t u;
  memcpy(&u, &y, sizeof u);
  // CHECK: float-bits-calls.c:[[@LINE+1]]:10: error: cannot differentiate 'g' in reverse mode: the bits of a floating-point value with a derivative are passed to 'from_bits_weak' as an integer (argument 1), and adcc cannot give 'from_bits_weak' a copy that takes it as a floating-point number (the function may be replaced at link time
  return from_bits_weak(u);
}
double dg(double x) { return __enzyme_autodiff((void *)g, x); }

// CHECK: float-bits-calls.c:[[@LINE+1]]:39: error: cannot differentiate 'f' in reverse mode: 'to_bits_weak' returns the bits of a floating-point value with a derivative as an integer, and adcc cannot give it a copy that returns a floating-point number
double f(double x) { return from_bits(to_bits_weak(x * x)); }
double df(double x) { return __enzyme_autodiff((void *)f, x); }

// (At -O2 the shifts fold away, and h's derivatives are right: e2e.)
double h(double x) {
  uint64_t u = to_bits(x * x);
  // O0: float-bits-calls.c:[[@LINE+1]]:12: error: cannot differentiate 'h' in forward mode: the bits of a floating-point value with a derivative are stored as an integer into memory that holds no derivative
  uint32_t hi = u >> 32, lo = (uint32_t)u;
  // O0: float-bits-calls.c:[[@LINE-3]]:12: error: cannot differentiate 'h' in reverse mode: a floating-point value is copied as an integer
  return from_bits(((uint64_t)hi << 32) | lo);
}
double dh(double x) { return __enzyme_fwddiff((void *)h, x, 1.0); }
double rh(double x) { return __enzyme_autodiff((void *)h, x); }
