// Reverse mode through function pointers and virtual calls: a run-time
// dispatch to the derivative of each possible target.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -O0 %s -o %t/p0 && %t/p0 | FileCheck %s
// RUN: %adcc++ -O2 %s -o %t/p2 && %t/p2 | FileCheck %s
// CHECK: 1.5 (1.5) 1.75517 (1.75517)
// CHECK-NEXT: 1 (1) 1.64872 (1.64872)
#include <cstdio>
#include <cmath>
extern "C" double __enzyme_autodiff(void*, ...);
extern "C" int enzyme_const;
typedef double (*fn)(double);
double cube(double x) { return x*x*x; }
double sine(double x) { return std::sin(x); }
double apply(fn f, double x) { return f(x) * 2.0; }
double pick(double x, int which) { fn table[2] = {cube, sine}; return apply(table[which], x); }
struct Shape { virtual double f(double x) const = 0; virtual ~Shape() {} };
struct Sq : Shape { double f(double x) const override { return x * x; } };
struct Ex : Shape { double f(double x) const override { return std::exp(x); } };
double eval(const Shape *s, double x) { return s->f(x) + 1; }
int main() {
  double x = 0.5;
  printf("%g (%g) %g (%g)\n", __enzyme_autodiff((void*)pick, x, enzyme_const, 0), 6*x*x, __enzyme_autodiff((void*)pick, x, enzyme_const, 1), 2*std::cos(x));
  Sq sq; Ex ex;
  printf("%g (%g) %g (%g)\n", __enzyme_autodiff((void*)eval, enzyme_const, (const Shape*)&sq, x), 2*x, __enzyme_autodiff((void*)eval, enzyme_const, (const Shape*)&ex, x), std::exp(x));
}
