// try/catch inside the differentiated region. Forward mode supports it (the
// tangent follows the path taken); reverse mode supports exceptions that
// leave the derivative (tests/e2e/rev_exceptions.cpp). An exception caught
// inside the region in reverse mode is not diagnosed yet (see README.md).
// RUN: %expect-exit 0 %adcc++ -O0 -c %s -o /dev/null
// RUN: %expect-exit 0 %adcc++ -O2 -c %s -o /dev/null
#include <stdexcept>
extern "C" double __enzyme_fwddiff(void *, ...);

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
