// A class template's specialization copied as bytes in a function of
// another file, whose derivative is made at link time: the holder's
// constructor copies its `Gain<double> const&` parameter (two doubles, a
// std::function, an array) field by field with memcpy from -O1. The
// layouts the frontend records travel with the IR the object carries
// (named metadata adcc.template.records), so the copy is typed there as
// in one file. f = (g.k x + g.c[0] + g.c[1]) x with k = 3, c = (x, 2):
// f = 4 x^2 + 2 x, f'(1.5) = 8 x + 2 = 14.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc++ -O0 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O0 && ./prog-O0 | FileCheck %s
// RUN: %adcc++ -O1 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O1 && ./prog-O1 | FileCheck %s
// RUN: %adcc++ -O2 -c body.cpp main.cpp && %adcc++ main.o body.o -o prog-O2 && ./prog-O2 | FileCheck %s
// CHECK: reverse 14 forward 14

//--- body.h
#include <array>
#include <functional>
template <class T> struct Gain {
  T k = 3;
  std::function<T(T)> shape = [](T v) { return v; };
  std::array<T, 2> c = {0, 2};
};
template <class T> struct Holder {
  explicit Holder(const Gain<T> &g);
  T value(T x) const;
  Gain<T> g;
};
double run(double x);

//--- body.cpp
#include "body.h"
template <class T>
__attribute__((noinline)) Holder<T>::Holder(const Gain<T> &g) : g(g) {}
template <class T> T Holder<T>::value(T x) const {
  return (g.k * x + g.shape(g.c[0]) + g.c[1]) * x;
}
template struct Holder<double>;
template struct Holder<float>;
double run(double x) {
  Gain<double> g;
  g.c[0] = x;
  Holder<double> h(g);
  return h.value(x);
}

//--- main.cpp
#include "body.h"
#include <cstdio>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
int main() {
  double r = __enzyme_autodiff((void *)run, 1.5);
  double t = __enzyme_fwddiff((void *)run, 1.5, 1.0);
  std::printf("reverse %g forward %g\n", r, t);
}
