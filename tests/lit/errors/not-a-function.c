// The function to differentiate must be known at compile time. A helper that
// receives it as a parameter is copied for the functions its callers pass
// only where it is static or inline and called directly; an external one
// keeps its own body, and the error says why.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: not-a-function.c:[[@LINE+7]]:10: error: the first argument of __enzyme_autodiff must name a function known at compile time; it is a parameter of 'gradient_of', which adcc copies for each function its callers pass only where it is static or inline and called directly
// CHECK: not-a-function.c:[[@LINE+13]]:10: error: the first argument of __enzyme_autodiff must name a function known at compile time{{$}}
// CHECK-NOT: Stack dump
double __enzyme_autodiff(void *, ...);
double square(double x) { return x * x; }
double other(double x) { return x * x * x; }
double gradient_of(double (*fn)(double), double x) {
  return __enzyme_autodiff((void *)fn, x);
}
double use(double x) { return gradient_of(square, x); }

// A pointer chosen at run time.
double chosen(int which, double x) {
  double (*fn)(double) = which ? square : other;
  return __enzyme_autodiff((void *)fn, x);
}
