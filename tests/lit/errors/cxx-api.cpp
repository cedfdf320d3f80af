// Misuse of <adcc.hpp> is a compile-time error (a static_assert) naming what
// to do, never a crash of the program, the same at every level. adcc::hvp
// wants Dual floating-point or Const arguments, one Dual at least, and a
// floating-point result; adcc::jacobian a std::array result and Active or
// Const arguments; Active and Dual values of objects that need copy
// constructors (std::vector) belong in Duplicated pointers. What is valid
// compiles at -O0 as at -O1: hvp of functors with data, lambdas with
// captures and Const pointers (e2e cxx_api.cpp runs them at every level).
// RUN: not %adcc++ -O0 -std=c++17 -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: not %adcc++ -O1 -std=c++17 -fsyntax-only %s 2>&1 | FileCheck %s
// RUN: %adcc++ -O0 -std=c++17 -fsyntax-only -DVALID %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VALID --allow-empty
// VALID-NOT: error
#include <adcc.hpp>
#include <cmath>
#include <vector>

static double f(double x, double y, const double *c) {
  return c[0] * x * x * y + std::sin(x * y);
}

struct Functor {
  double k;
  double operator()(double x) const { return k * x * x * x; }
};

#ifdef VALID
double use(double x, double y) {
  const double c[1] = {2.0};
  double k = 3.0;
  auto [a, b] = adcc::hvp(f, adcc::Dual(x, 1.0), adcc::Dual(y, 0.0),
                          adcc::Const(&c[0]));
  auto [d] = adcc::hvp([k](double t) { return k * t * t; },
                       adcc::Dual(x, 1.0));
  auto [e] = adcc::hvp(Functor{k}, adcc::Dual(x, 1.0));
  auto [g] = adcc::hvp([](double t) { return t * t * t; }, adcc::Dual(x, 1.0));
  return a + b + d + e + g;
}
#else
double misuse_hvp(double x, double y) {
  const double c[1] = {2.0};
  // CHECK: error: static assertion failed{{.*}}adcc::hvp: wrap each argument in adcc::Dual(value, direction) or adcc::Const
  auto [a] = adcc::hvp(Functor{1.0}, adcc::Active(x));
  // CHECK: error: static assertion failed{{.*}}adcc::hvp: the Dual arguments must be floating-point values
  auto [b, d, e] = adcc::hvp(f, adcc::Dual(x, 1.0), adcc::Dual(y, 0.0),
                             adcc::Dual(&c[0], &c[0]));
  // CHECK: error: static assertion failed{{.*}}adcc::hvp: at least one argument must be adcc::Dual
  auto g = adcc::hvp(Functor{1.0}, adcc::Const(x));
  // CHECK: error: static assertion failed{{.*}}adcc::hvp: the function must return a floating-point value
  auto [h] = adcc::hvp([](double t) { return int(t); }, adcc::Dual(x, 1.0));
  return a + b + d + e + h + sizeof(g);
}

double misuse_objects(const std::vector<double> &v) {
  auto sum = [](std::vector<double> w) { return w[0] + w[1]; };
  // CHECK: error: static assertion failed{{.*}}adcc::gradient: an Active value must be trivially copyable (floating-point, complex, a struct or std::array of them); give other objects as adcc::Duplicated(&value, &shadow)
  auto [g] = adcc::gradient(sum, adcc::Active(v));
  // CHECK: error: static assertion failed{{.*}}adcc::forward: a Dual value must be trivially copyable (floating-point, complex, a struct or std::array of them); give other objects as adcc::Dual(&value, &tangent)
  double t = adcc::forward(sum, adcc::Dual(v, v));
  return g[0] + t;
}

double misuse_jacobian(double x) {
  // CHECK: error: static assertion failed{{.*}}adcc::jacobian: the function must return a std::array of floating-point values
  auto J = adcc::jacobian([](double t) { return t * t; }, adcc::Active(x));
  // CHECK: error: static assertion failed{{.*}}adcc::jacobian: wrap each argument in adcc::Active or adcc::Const
  auto K = adcc::jacobian(
      [](double t) { return std::array<double, 1>{t}; }, adcc::Dual(x, 1.0));
  return J[0][0] + K[0][0];
}
#endif
