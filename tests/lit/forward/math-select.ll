; fmin and fmax rows select (MathCombine::Select): the tangent is the chosen
; argument's tangent, never a sum of products with the indicator partials,
; so that the other argument's NaN or infinite tangent does not leak
; (0 * NaN). Lane by lane at width 2.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

@enzyme_width = external global i32
declare double @__enzyme_fwddiff(ptr, ...)
declare [2 x double] @__enzyme_fwddiff2(ptr, ...)
declare double @llvm.maxnum.f64(double, double)
declare double @llvm.minimum.f64(double, double)

define double @max(double %x, double %y) {
  %m = call double @llvm.maxnum.f64(double %x, double %y)
  ret double %m
}

define double @min(double %x, double %y) {
  %m = call double @llvm.minimum.f64(double %x, double %y)
  ret double %m
}

define double @request(double %x, double %y) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @max, double %x, double 1.0, double %y, double 2.0)
  ret double %r
}

define [2 x double] @request2(double %x, double %y) {
  %w = load i32, ptr @enzyme_width
  %r = call [2 x double] (ptr, ...) @__enzyme_fwddiff2(ptr @min, i32 %w, i32 2, double %x, double 1.0, double 2.0, double %y, double 3.0, double 4.0)
  ret [2 x double] %r
}

; CHECK-LABEL: define internal double @fwddiffe_max(double %x, double %x.shadow, double %y, double %y.shadow)
; CHECK:      %m = call double @llvm.maxnum.f64(double %x, double %y)
; CHECK-NOT:  fmul
; CHECK:      [[PX:%.*]] = uitofp i1 {{%.*}} to double
; CHECK:      [[PY:%.*]] = uitofp i1 {{%.*}} to double
; CHECK-NEXT: [[CX:%.*]] = fcmp one double [[PX]], 0.000000e+00
; CHECK-NEXT: [[TX:%.*]] = select i1 [[CX]], double %x.shadow, double 0.000000e+00
; CHECK-NEXT: [[CY:%.*]] = fcmp one double [[PY]], 0.000000e+00
; CHECK-NEXT: [[T:%.*]] = select i1 [[CY]], double %y.shadow, double [[TX]]
; CHECK-NEXT: ret double [[T]]

; CHECK-LABEL: define internal [2 x double] @fwddiffe2_min(
; CHECK:      %m = call double @llvm.minimum.f64(double %x, double %y)
; CHECK-NOT:  fmul
; CHECK-COUNT-4: select i1
; CHECK-NOT:  fmul
; CHECK:      ret [2 x double]
