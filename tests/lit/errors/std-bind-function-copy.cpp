// A std::function holding std::bind's result, assigned from another
// std::function: from -O1 the manager clones the std::_Bind object (kept
// on the heap) as bytes that nothing in the optimized manager types, a
// located error. Constructed from the bind object it is differentiated at
// every level, and at -O0 assigned too (the clone typed by the class the
// manager's inlined helpers name: e2e rev_std_function_moves.cpp).
// RUN: %expect-exit 1 %adcc++ -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 0 %adcc++ -O0 -c %s -o /dev/null
// RUN: %expect-exit 0 %adcc++ -O1 -DCONSTRUCTED -c %s -o /dev/null
// CHECK: error: cannot differentiate 'std::_Function_handler<double (double), std::_Bind<{{.*}}>::_M_manager({{.*}})' in reverse mode: a memory copy whose contents cannot be typed
#include <functional>
extern "C" double __enzyme_autodiff(void *, ...);
static double mul3(double a, double b, double c) { return a * b * c; }
static double bound(double k) {
  std::function<double(double)> f = std::bind(mul3, k, std::placeholders::_1, 2.0);
#ifdef CONSTRUCTED
  return f(3.0);
#else
  std::function<double(double)> g;
  g = f;
  return g(3.0);
#endif
}
double dk(double k) { return __enzyme_autodiff((void *)bound, k); }
