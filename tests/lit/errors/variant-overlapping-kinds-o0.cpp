// A std::vector of std::variant<A, C> whose alternatives put a double and
// an int at the same bytes: which one an element holds is known only at
// run time, so the copies of its elements cannot be typed at -O0 (a
// located error); alternatives that agree where they overlap (A and B of
// doubles) are typed from their declared fields (e2e rev_std_variant.cpp).
// RUN: %expect-exit 1 %adcc++ -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 0 %adcc++ -O0 -DAGREE -c %s -o /dev/null
// CHECK: error: cannot differentiate {{.*}} in reverse mode: a memory copy whose contents cannot be typed
#include <variant>
#include <vector>
extern "C" double __enzyme_autodiff(void *, ...);
struct A { double r; };
struct B { double w, h; };
struct C { int n; double r; };
#ifdef AGREE
using V = std::variant<A, B>;
static double get(const V &e) { return e.index() ? std::get<B>(e).w : std::get<A>(e).r; }
static V second(double x) { return B{x, 2}; }
#else
using V = std::variant<A, C>;
static double get(const V &e) { return e.index() ? std::get<C>(e).r : std::get<A>(e).r; }
static V second(double x) { return C{2, x}; }
#endif
static double sum(double x) {
  std::vector<V> v = {A{x}, second(x)};
  return get(v[0]) * get(v[1]);
}
double dx(double x) { return __enzyme_autodiff((void *)sum, x); }
