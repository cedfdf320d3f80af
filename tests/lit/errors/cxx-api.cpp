// Misuse of <adcc.hpp> is a compile-time error (a static_assert) naming what
// to do, never a crash of the program. adcc::hvp at -O0 takes functions and
// lambdas without captures, without Const pointers (at -O1 and up the rest
// works: e2e cxx_api.cpp); adcc::jacobian wants a std::array result and
// Active or Const arguments.
// RUN: not %adcc++ -O0 -std=c++17 -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: not %adcc++ -O1 -std=c++17 -fsyntax-only %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPT
// RUN: not %adcc++ -O1 -std=c++17 -fsyntax-only %s 2>&1 \
// RUN:   | not grep "adcc::hvp:"
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
  auto [g] = adcc::hvp([](double t) { return t * t * t; }, adcc::Dual(x, 1.0));
  return a + b + d + e + g;
}

double misuse(double x) {
  // CHECK: error: static assertion failed{{.*}}adcc::jacobian: the function must return a std::array of floating-point values
  // OPT: error: static assertion failed{{.*}}adcc::jacobian: the function must return a std::array of floating-point values
  auto J = adcc::jacobian([](double t) { return t * t; }, adcc::Active(x));
  // CHECK: error: static assertion failed{{.*}}adcc::jacobian: wrap each argument in adcc::Active or adcc::Const
  // OPT: error: static assertion failed{{.*}}adcc::jacobian: wrap each argument in adcc::Active or adcc::Const
  auto K = adcc::jacobian(
      [](double t) { return std::array<double, 1>{t}; }, adcc::Dual(x, 1.0));
  return J[0][0] + K[0][0];
}
