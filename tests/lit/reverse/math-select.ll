; fmin and fmax rows select (MathCombine::Select): the result adjoint goes
; to the chosen argument alone, as a select, never multiplied by the
; indicator partials (0 * inf or 0 * NaN for the other argument).
; RUN: adcc-opt -passes=adcc %s -o - 2>/dev/null | FileCheck %s

declare { double, double } @__enzyme_autodiff(ptr, ...)
declare double @llvm.maxnum.f64(double, double)

define double @max(double %x, double %y) {
  %m = call double @llvm.maxnum.f64(double %x, double %y)
  ret double %m
}

define { double, double } @request(double %x, double %y) {
  %r = call { double, double } (ptr, ...) @__enzyme_autodiff(ptr @max, double %x, double %y)
  ret { double, double } %r
}

; CHECK-LABEL: define internal { double, double } @diffe_max(double %seed)
; CHECK:      %m.d = load double, ptr %m.adjoint
; CHECK-NOT:  fmul
; CHECK:      [[PX:%.*]] = uitofp i1 {{%.*}} to double
; CHECK-NEXT: [[CX:%.*]] = fcmp one double [[PX]], 0.000000e+00
; CHECK-NEXT: [[AX:%.*]] = select i1 [[CX]], double %m.d, double 0.000000e+00
; CHECK:      fadd {{.*}}double {{%.*}}, [[AX]]
; CHECK-NOT:  fmul
; CHECK:      [[PY:%.*]] = uitofp i1 {{%.*}} to double
; CHECK-NEXT: [[CY:%.*]] = fcmp one double [[PY]], 0.000000e+00
; CHECK-NEXT: [[AY:%.*]] = select i1 [[CY]], double %m.d, double 0.000000e+00
; CHECK:      fadd {{.*}}double {{%.*}}, [[AY]]
; CHECK-NOT:  fmul
; CHECK:      ret { double, double }
