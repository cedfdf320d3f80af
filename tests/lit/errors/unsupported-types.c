// Types adcc cannot differentiate, or cannot differentiate this way. (A
// struct of 9 to 16 bytes passed by value: struct-by-value.c. long double
// and _Complex values, and variable-length arrays, are supported:
// tests/e2e.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// With -fcx-limited-range complex products are computed inline and
// differentiated.
// RUN: %expect-exit 1 %adcc -O0 -fcx-limited-range -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITED
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

// Complex multiplication and division call the compiler runtime.
double product(double x) {
  _Complex double z = x + 2.0 * __builtin_complex(0.0, 1.0);
  // CHECK: unsupported-types.c:[[@LINE+2]]:25: error: cannot differentiate 'product' in forward mode: complex multiplication calls the runtime function '__muldc3', which has no derivative rule; compile with -fcx-limited-range (or -ffast-math) to compute it inline
  // LIMITED-NOT: '__muldc3'
  _Complex double w = z * z;
  return __real__ w + __imag__ w;
}
double dproduct(double x) { return __enzyme_fwddiff((void *)product, x, 1.0); }

// The same in reverse mode.
double quotient(double x) {
  _Complex double z = x + 2.0 * __builtin_complex(0.0, 1.0);
  // CHECK: unsupported-types.c:[[@LINE+2]]:27: error: cannot differentiate 'quotient' in reverse mode: complex division calls the runtime function '__divdc3', which has no derivative rule; compile with -fcx-limited-range (or -ffast-math) to compute it inline
  // LIMITED-NOT: '__divdc3'
  _Complex double w = 1.0 / z;
  return __real__ w + __imag__ w;
}
double dquotient(double x) { return __enzyme_autodiff((void *)quotient, x); }

// A complex result is two doubles: the entry point must be declared to
// return them.
_Complex double twice(_Complex double z) { return z + z; }
// CHECK: unsupported-types.c:[[@LINE+2]]:43: error: __enzyme_autodiff is declared to return double, but the derivative of 'twice' returns struct { double; double; }
// LIMITED: unsupported-types.c:[[@LINE+1]]:43: error: __enzyme_autodiff is declared to return double
double dtwice(_Complex double z) { return __enzyme_autodiff((void *)twice, z); }

// Integers carry no derivative, whatever their width.
__int128 square128(__int128 v) { return v * v; }
// CHECK: unsupported-types.c:[[@LINE+1]]:40: error: argument 1 of 'square128' has type 128-bit integer, which carries no derivative; pass it with enzyme_const
double dsquare128(__int128 v) { return __enzyme_fwddiff((void *)square128, enzyme_dup, v, v); }

