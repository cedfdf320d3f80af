// A struct or complex value passed by value that the C ABI splits into two
// arguments is grouped by the parameters of the function the request names
// (tests/e2e/split_values.c). Through a function pointer there is no
// declaration to read the parameters from: an error at the argument.
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
typedef struct { double a, b; } pair;
double __enzyme_fwddiff(void *, ...);
double f(pair p) { return p.a * p.b; }
double g(double _Complex z) { return __real__ z * __imag__ z; }
double df(double (*fn)(pair), double (*gn)(double _Complex)) {
  pair s = {2, 7}, ds = {1, 0};
  double _Complex z = 1, dz = 1;
  // Named functions: fine.
  double ok = __enzyme_fwddiff((void *)f, s, ds) +
              __enzyme_fwddiff((void *)&g, z, dz);
  // CHECK: struct-by-value.c:[[@LINE+1]]:44: error: a struct or complex value ('pair') passed by value to __enzyme_fwddiff through a function pointer is not supported by adcc (the C ABI splits it into two arguments): name the function itself, or pass a pointer to the value with enzyme_dup
  return ok + __enzyme_fwddiff((void *)fn, s, ds) +
  // CHECK: struct-by-value.c:[[@LINE+1]]:39: error: a struct or complex value ('_Complex double') passed by value to __enzyme_fwddiff through a function pointer
         __enzyme_fwddiff((void *)gn, z, dz);
}
