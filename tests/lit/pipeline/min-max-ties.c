// Min/max choices in the functions that derivative requests reach stay
// selects with -ffast-math (MinMaxChoices.cpp): InstCombine would turn
// `(r > v[i]) ? r : v[i]` into llvm.maxnum(r, v[i]), whose tie goes to r
// while the program chooses v[i] (so the compares lose nnan and nsz too).
// The derivatives choose by the compare;
// a function no request reaches keeps its llvm.maxnum.
// RUN: %adcc -O2 -ffast-math -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O3 -ffast-math -S -emit-llvm %s -o - | FileCheck %s
extern void __enzyme_autodiff(void *, ...);
extern float __enzyme_fwddiff(void *, ...);

double vmax(const double *v, int n) {
  double r = v[0];
  for (int i = 1; i < n; i++)
    r = (r > v[i]) ? r : v[i];
  return r;
}

float fmin2(float a, float b) { return a < b ? a : b; }

double unreached(double a, double b) { return a > b ? a : b; }

// CHECK-LABEL: define {{.*}} @fmin2(
// CHECK-NOT: @llvm.minnum
// CHECK: fcmp reassoc ninf arcp contract afn olt float
// CHECK-NEXT: select {{.*}}i1 %{{.*}}, float
// CHECK-NOT: @llvm.minnum
// CHECK: ret float

// CHECK-LABEL: define {{.*}} @unreached(
// CHECK: @llvm.maxnum.f64(

// CHECK-LABEL: define {{.*}} @grad(
// CHECK-NOT: @llvm.maxnum
// CHECK-NOT: @llvm.vector.reduce.fmax
// CHECK: [[P:%.*]] = fcmp reassoc ninf arcp contract afn ogt double
// CHECK-NEXT: select {{.*}}i1 [[P]], double
// CHECK: select i1 %{{.*}}, double %{{.*}}, double 0.0
// CHECK-NOT: @llvm.maxnum
// CHECK-NOT: @llvm.vector.reduce.fmax
// CHECK: ret void
void grad(const double *v, double *d, int n) {
  __enzyme_autodiff((void *)vmax, v, d, n);
}

// CHECK-LABEL: define {{.*}} @tangent(
// CHECK: [[C:%.*]] = fcmp reassoc ninf arcp contract afn olt float %0, %2
// CHECK-NEXT: select i1 [[C]], float %1, float %3
float tangent(float a, float da, float b, float db) {
  return __enzyme_fwddiff((void *)fmin2, a, da, b, db);
}
