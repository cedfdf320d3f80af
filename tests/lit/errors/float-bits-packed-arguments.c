// A struct of integers and a float passed by value to a function that is
// not inlined, in one integer register (x86-64 packs `{short n, m; float
// f;}` into an i64, the float in the high word, built with shifts and ors
// of the shorts from -O1, loaded whole from the struct at -O0). Where
// FloatBitArguments.cpp does not pass the float as a float, neither mode
// follows its derivative through the integer: an error at the call in
// both modes, never the derivative without the float's part given until
// 2026-12-07 at every level. The same struct passed by pointer is fine.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O3 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

typedef struct {
  short n, m;
  float f;
} S;

__attribute__((noinline)) static double use(S s, double y) {
  return s.f * (1 + s.n + s.m) * y;
}
// CHECK: float-bits-packed-arguments.c:[[@LINE+4]]:10: error: cannot differentiate 'g' in reverse mode: the bits of a floating-point value with a derivative are passed to 'use' packed beside other bits in one integer (argument 1
// CHECK: float-bits-packed-arguments.c:[[@LINE+3]]:10: error: cannot differentiate 'g' in forward mode: the bits of a floating-point value with a derivative are passed to 'use' packed beside other bits in one integer (argument 1
double g(double x) {
  S s = {(short)x, 2, (float)(x * x)};
  return use(s, x);
}
double dg(double x) { return __enzyme_autodiff((void *)g, x); }
double tg(double x) { return __enzyme_fwddiff((void *)g, x, 1.0); }

// By pointer: no error.
__attribute__((noinline)) static double usep(const S *s, double y) {
  return s->f * (1 + s->n + s->m) * y;
}
double h(double x) {
  S s = {(short)x, 2, (float)(x * x)};
  return usep(&s, x);
}
double dh(double x) { return __enzyme_autodiff((void *)h, x); }
// CHECK-NOT: cannot differentiate 'h'
// CHECK-NOT: Stack dump
