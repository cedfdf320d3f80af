// A std::function holding a lambda that captured a double by value,
// copy-assigned (`h = g`) in reverse mode at -O0: the assignment swaps the
// function's storage (std::_Any_data) through bytes that nothing types on
// that path, and moving no adjoint there lost the capture's derivative
// (gradient 0) until 2026-12-06. Now a located error in the library code
// the copy is in; from -O1 it is differentiated (e2e probe_modern_cxx).
// Copy construction (`std::function h = g`, a vector built from {g, g}) is
// differentiated at every level.
// RUN: %expect-exit 1 %adcc++ -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 0 %adcc++ -O0 -DCOPY -c %s -o /dev/null
// RUN: %expect-exit 0 %adcc++ -O1 -c %s -o /dev/null
// CHECK: error: cannot differentiate 'std::function<double (double)>::operator=(std::function<double (double)> const&)' in reverse mode: a std::function holding a callable with floating-point values (a lambda that captured them by value) is copy-assigned where its type is not known (code compiled at -O0); compile this file with -O1 or higher, or capture by reference
#include <functional>
extern "C" double __enzyme_autodiff(void *, ...);
static double assigned(double k) {
  std::function<double(double)> g = [k](double t) { return k * t; };
#ifdef COPY
  std::function<double(double)> h = g;
#else
  std::function<double(double)> h;
  h = g;
#endif
  return h(2.0);
}
double dk(double k) { return __enzyme_autodiff((void *)assigned, k); }
