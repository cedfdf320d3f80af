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
  // CHECK-DAG: error: static assertion failed{{.*}}enzyme::autodiff: wrap each argument in enzyme::Active, enzyme::Duplicated, enzyme::DuplicatedNoNeed or enzyme::Const
  enzyme::autodiff<enzyme::Reverse>(f, x, enzyme::Const(p));
}
