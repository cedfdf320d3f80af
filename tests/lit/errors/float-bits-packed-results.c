// A struct that mixes floating-point and integer fields is returned by
// value with a float packed into an integer word next to an int (x86-64
// returns `struct {int n; float f; double v;}` as `{i64, double}`). Neither
// mode follows a derivative through that word: an error at the call in
// both modes. Both gave the derivative without f's part before, silently,
// at -O0, and forward mode at every level (reverse mode refused the
// caller's unpacking of the word from -O1 on).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double sin(double);

struct packed {
  int n;
  float f;
  double v;
};
__attribute__((noinline)) static struct packed make(double x) {
  struct packed r = {3, (float)(x * x), sin(x)};
  return r;
}
// CHECK: float-bits-packed-results.c:[[@LINE+2]]:40: error: cannot differentiate 'g' in reverse mode: 'make' returns a floating-point value packed into an integer field of its result
// CHECK: float-bits-packed-results.c:[[@LINE+1]]:40: error: cannot differentiate 'g' in forward mode: 'make' returns a floating-point value packed into an integer field of its result
double g(double x) { struct packed r = make(x); return r.f * r.n + r.v; }
double dg(double x) { return __enzyme_autodiff((void *)g, x); }
double tg(double x) { return __enzyme_fwddiff((void *)g, x, 1.0); }

// A struct whose integer word holds integers only is fine (no error).
struct counted {
  int n, m;
  double v;
};
__attribute__((noinline)) static struct counted count(double x) {
  struct counted r = {3, 4, x * x};
  return r;
}
double h(double x) { struct counted r = count(x); return r.v * r.n; }
double dh(double x) { return __enzyme_autodiff((void *)h, x); }
// CHECK-NOT: cannot differentiate 'h'
// CHECK-NOT: Stack dump
