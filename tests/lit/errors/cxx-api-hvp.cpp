// adcc::hvp at -O0 takes functions and lambdas without captures, without
// Const pointers: the rest is a compile-time error there (at -O1 and up it
// works: e2e cxx_api.cpp), never a crash of the program.
// RUN: not %adcc++ -O0 -std=c++17 -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: %adcc++ -O1 -std=c++17 -fsyntax-only %s
#include <adcc.hpp>
#include <cmath>

static double f(double x, double y, const double *c) {
  return c[0] * x * x * y + std::sin(x * y);
}

struct Functor {
  double k;
  double operator()(double x) const { return k * x * x * x; }
};

double use(double x, double y) {
  const double c[1] = {2.0};
  double k = 3.0;
  // CHECK: error: static assertion failed{{.*}}adcc::hvp: at -O0 only of a function or a lambda without captures, without Const pointers; compile with -O1 or higher
  auto [a, b] = adcc::hvp(f, adcc::Dual(x, 1.0), adcc::Dual(y, 0.0),
                          adcc::Const(&c[0]));
  // CHECK: error: static assertion failed{{.*}}adcc::hvp: at -O0 only of a function
  auto [d] = adcc::hvp([k](double t) { return k * t * t; },
                       adcc::Dual(x, 1.0));
  // CHECK: error: static assertion failed{{.*}}adcc::hvp: at -O0 only of a function
  auto [e] = adcc::hvp(Functor{k}, adcc::Dual(x, 1.0));
  // (a function with Const values and a lambda without captures are fine)
  // CHECK-NOT: error:
  auto [g] = adcc::hvp([](double t) { return t * t * t; }, adcc::Dual(x, 1.0));
  return a + b + d + e + g;
}
