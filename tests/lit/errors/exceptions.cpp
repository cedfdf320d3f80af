// try/catch inside the differentiated region. Forward mode supports it (the
// tangent follows the path taken); reverse mode supports exceptions that
// leave the derivative, and landing pads that only clean up or rethrow
// (tests/e2e/rev_exceptions.cpp). A handler that catches an exception that
// left a differentiated call and goes on (reverse mode) compiles, as in
// Enzyme: the reverse of the call is that of a call whose exception is not
// taken (right derivatives: e2e rev_caught_exceptions.cpp). A run that
// takes such a handler stops in the augmented sweep with a message naming
// the function and the call (until 2026-12-06 a compile-time error at the
// call), never with a wrong derivative.
// RUN: %expect-exit 0 %adcc++ -O0 -c %s -o /dev/null
// RUN: %expect-exit 0 %adcc++ -O2 -c %s -o /dev/null
// RUN: %adcc++ -O0 -DREVERSE %s -o %t0
// RUN: %t0 2 | FileCheck %s --check-prefix=RIGHT
// RUN: not --crash %t0 -1 2>&1 | FileCheck %s
// RUN: %adcc++ -O2 -DREVERSE %s -o %t2
// RUN: %t2 2 | FileCheck %s --check-prefix=RIGHT
// RUN: not --crash %t2 -1 2>&1 | FileCheck %s
// RIGHT: gradient at 2: 12
// CHECK: adcc runtime: error: an exception left a differentiated call in 'f(double)' (exceptions.cpp:[[#@LINE+14]]) and was caught inside the differentiated code: the derivative of a run that takes such a handler is not supported; catch it in the caller of the derivative
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
extern "C" double __enzyme_fwddiff(void *, ...);
extern "C" double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) double risky(double x) {
  if (x < 0)
    throw std::runtime_error("negative");
  return x * x;
}
double f(double x) {
  try {
    return risky(x) * 3;
  } catch (const std::exception &) {
    return x;
  }
}
double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
#ifdef REVERSE
double gf(double x) { return __enzyme_autodiff((void *)f, x); }
int main(int argc, char **argv) {
  double x = argc > 1 ? atof(argv[1]) : 2;
  printf("gradient at %g: %g\n", x, gf(x));
  return 0;
}
#endif
