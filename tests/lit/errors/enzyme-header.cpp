// Misuse of Enzyme's C++ interface (<enzyme/enzyme>, shipped by adcc) is a
// compile-time error (a static_assert) saying what to write instead.
// RUN: not %adcc++ -std=c++17 -fsyntax-only %s 2>&1 | FileCheck %s
#include <enzyme/enzyme>

double f(double x, const double *p) { return x * p[0]; }

void uses(double x, const double *p, double *dp) {
  // CHECK-DAG: error: static assertion failed{{.*}}enzyme::Active is for values (floating-point numbers or structs of them); give a pointer or reference with its shadow as enzyme::Duplicated
  enzyme::autodiff<enzyme::Reverse>(f, enzyme::Active(x),
                                    enzyme::Active<const double *>(p));
  // CHECK-DAG: error: static assertion failed{{.*}}enzyme::Duplicated in reverse mode is for pointers and references (the shadow receives the adjoint); give a floating-point value as enzyme::Active
  enzyme::autodiff<enzyme::Reverse>(f, enzyme::Duplicated(x, x),
                                    enzyme::Const(p));
  // CHECK-DAG: error: static assertion failed{{.*}}enzyme::Active is for reverse mode; forward mode takes enzyme::Duplicated(value, tangent)
  enzyme::autodiff<enzyme::Forward>(f, enzyme::Active(x), enzyme::Const(p));
  // CHECK-DAG: error: static assertion failed{{.*}}enzyme::autodiff: wrap each argument in enzyme::Active, enzyme::Duplicated, enzyme::DuplicatedNoNeed, enzyme::BatchDuplicated or enzyme::Const
  enzyme::autodiff<enzyme::Reverse>(f, x, enzyme::Const(p));
}

double g(double x, double y) { return x * y; }
void batched(double x, double y) {
  // CHECK-DAG: error: static assertion failed{{.*}}enzyme::BatchDuplicated is for forward mode (enzyme::Forward, enzyme::ForwardWithPrimal); batched gradients: __enzyme_autodiff with enzyme_width
  enzyme::autodiff<enzyme::Reverse>(g, enzyme::BatchDuplicated<double, 2>(x, {1.0, 0.0}), enzyme::Const(y));
  // CHECK-DAG: error: static assertion failed{{.*}}enzyme::BatchDuplicated: every batched argument must have the same number of shadows
  enzyme::autodiff<enzyme::Forward>(g, enzyme::BatchDuplicated<double, 2>(x, {1.0, 0.0}), enzyme::BatchDuplicated<double, 3>(y, {0.0, 1.0, 0.0}));
  // CHECK-DAG: error: static assertion failed{{.*}}enzyme::autodiff with enzyme::BatchDuplicated: the other arguments are enzyme::BatchDuplicated too (with N shadows) or enzyme::Const
  enzyme::autodiff<enzyme::Forward>(g, enzyme::BatchDuplicated<double, 2>(x, {1.0, 0.0}), enzyme::Duplicated(y, 1.0));
}
