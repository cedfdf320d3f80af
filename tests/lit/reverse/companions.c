// The partials of sin and cos computed side by side come from each other:
// the reverse sweep calls no libm function (cos, the first, takes sin's
// value, which sin records; sin takes cos's, recorded with it).
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O1
double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
double cos(double), sin(double);

static double rot(double t, double a) {
  double c = cos(t), s = sin(t);
  return a * c + a * a * s;
}
double grad(double t, double a) { return __enzyme_autodiff((void *)rot, t, enzyme_const, a); }

// At -O1 everything is inlined into grad: the primal's two calls only.
// O1-LABEL: define {{.*}} @grad(
// O1-COUNT-2: call double @{{sin|cos}}(
// O1-NOT: call {{.*}}@{{(llvm\.)?(sin|cos)(\.f64)?}}(
// O1: ret double
// (At -O0 the two calls read t from memory separately: not companions.)
