// A function whose name, demangled, is longer than a message can show (a
// C++ ODE solver's iterator whose template arguments are Butcher tableaus
// of hexadecimal floats ran to thousands of characters per error) is named
// with each outermost template argument list shortened to `<...>`; a
// shorter name is shown whole. (`operator<` is no bracket.)
// RUN: %expect-exit 1 %adcc++ -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc++ -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
extern "C" double __enzyme_autodiff(void *, ...);

template <int... N> struct Tableau {};
template <typename... T> struct Method {};
using Long = Tableau<0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                     17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
                     31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44,
                     45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58,
                     59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72,
                     73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86,
                     87, 88, 89>;
using Longer = Method<Long, Long, Long>;

template <typename T> struct Stepper {
  __attribute__((noinline)) double step(double x) {
    double r;
    // CHECK: long-template-names.cpp:[[@LINE+1]]:5: error: cannot differentiate 'Stepper<...>::step(double)' in reverse mode: inline assembly
    __asm__("movsd %1, %0" : "=x"(r) : "x"(x));
    return r * x;
  }
};

template <typename T> struct Key {
  double v;
  __attribute__((noinline)) bool operator<(const Key &o) const {
    double r;
    // CHECK: long-template-names.cpp:[[@LINE+1]]:5: error: cannot differentiate 'Key<...>::operator<(Key<...> const&) const' in reverse mode: inline assembly
    __asm__("movsd %1, %0" : "=x"(r) : "x"(v));
    return r < o.v;
  }
};

static double run(double x) {
  Stepper<Longer> s;
  return s.step(x);
}
static double compare(double x) {
  Key<Longer> a{x}, b{1.0};
  return a < b ? x : 0.0;
}
double gradient(double x) { return __enzyme_autodiff((void *)run, x); }
double gradient2(double x) { return __enzyme_autodiff((void *)compare, x); }
