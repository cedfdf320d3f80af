// Types adcc cannot differentiate, or cannot differentiate this way. (A
// struct of 9 to 16 bytes passed by value: struct-by-value.c. long double
// and _Complex values, complex products and quotients (__muldc3, ...), and
// variable-length arrays are supported: tests/e2e.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// The same with -fcx-limited-range (complex products computed inline).
// RUN: %expect-exit 1 %adcc -O0 -fcx-limited-range -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITED
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

// A complex result is two doubles: reverse mode cannot seed it with 1
// (struct-result.c).
_Complex double twice(_Complex double z) { return z + z; }
// CHECK: unsupported-types.c:[[@LINE+2]]:43: error: reverse mode of 'twice' cannot seed its result, of type struct { double; double; }
// LIMITED: unsupported-types.c:[[@LINE+1]]:43: error: reverse mode of 'twice' cannot seed its result
double dtwice(_Complex double z) { return __enzyme_autodiff((void *)twice, z); }

// Integers carry no derivative, whatever their width.
__int128 square128(__int128 v) { return v * v; }
// CHECK: unsupported-types.c:[[@LINE+1]]:40: error: argument 1 of 'square128' has type 128-bit integer, which carries no derivative; pass it with enzyme_const
double dsquare128(__int128 v) { return __enzyme_fwddiff((void *)square128, enzyme_dup, v, v); }

