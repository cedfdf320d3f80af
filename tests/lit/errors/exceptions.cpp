// try/catch inside the differentiated region. Forward mode supports it (the
// tangent follows the path taken); reverse mode supports exceptions that
// leave the derivative, and landing pads that only clean up or rethrow
// (tests/e2e/rev_exceptions.cpp). An exception caught inside the region in
// reverse mode (execution continues after the catch) is reported at the
// call that throws into the handler.
// RUN: %expect-exit 0 %adcc++ -O0 -c %s -o /dev/null
// RUN: %expect-exit 0 %adcc++ -O2 -c %s -o /dev/null
// RUN: %expect-exit 1 %adcc++ -O0 -DREVERSE -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O2 -DREVERSE -c %s -o /dev/null 2>&1 | FileCheck %s
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
    // CHECK: exceptions.cpp:[[@LINE+1]]:12: error: cannot differentiate 'f(double)' in reverse mode: an exception caught inside the differentiated code (try/catch) after it left a differentiated call is not supported yet in reverse mode; catch it in the caller of the derivative
    return risky(x) * 3;
  } catch (const std::exception &) {
    return x;
  }
}
double df(double x) { return __enzyme_fwddiff((void *)f, x, 1.0); }
#ifdef REVERSE
double gf(double x) { return __enzyme_autodiff((void *)f, x); }
#endif
