// A struct passed by value to an entry point that the C ABI splits into two
// arguments would be misread: it is an error at the argument. Smaller and
// larger structs are passed whole and work (tests/e2e/fwd_memory.c).
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: struct-by-value.c:[[@LINE+6]]:38: error: a struct ('pair') passed by value to __enzyme_fwddiff is not supported by adcc (the C ABI splits it into two arguments): pass its fields one by one, or a pointer to it with enzyme_dup
typedef struct { double a, b; } pair;
double __enzyme_fwddiff(void *, ...);
double f(pair p) { return p.a * p.b; }
double df(void) {
  pair s = {2, 7}, ds = {1, 0};
  return __enzyme_fwddiff((void *)f, s, ds);
}
