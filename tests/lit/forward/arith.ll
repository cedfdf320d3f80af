; Tangent rules of floating-point arithmetic. The sums of tangent code are
; sums in no particular order (reassoc nsz); the primal's keep their flags.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @arith(double %a, double %b) {
  %s = fadd double %a, %b
  %d = fsub double %s, %b
  %m = fmul double %d, %b
  %q = fdiv double %m, %a
  %n = fneg double %q
  ret double %n
}

define double @request(double %a, double %b) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @arith, double %a, double 1.0, double %b, double 0.0)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_arith(double %a, double %a.shadow, double %b, double %b.shadow)
; CHECK:      %s = fadd double %a, %b
; CHECK-NEXT: [[TS:%.*]] = fadd reassoc nsz double %a.shadow, %b.shadow
; CHECK-NEXT: %d = fsub double %s, %b
; CHECK-NEXT: [[TD:%.*]] = fsub reassoc nsz double [[TS]], %b.shadow
; CHECK-NEXT: %m = fmul double %d, %b
; CHECK-NEXT: [[X:%.*]] = fmul double [[TD]], %b
; CHECK-NEXT: [[Y:%.*]] = fmul double %d, %b.shadow
; CHECK-NEXT: [[TM:%.*]] = fadd reassoc nsz double [[X]], [[Y]]
; CHECK-NEXT: %q = fdiv double %m, %a
; CHECK-NEXT: [[R:%.*]] = fdiv double 1.000000e+00, %a
; CHECK-NEXT: [[QT:%.*]] = fmul double %q, %a.shadow
; CHECK-NEXT: [[NUM:%.*]] = fsub reassoc nsz double [[TM]], [[QT]]
; CHECK-NEXT: [[TQ:%.*]] = fmul double [[NUM]], [[R]]
; CHECK-NEXT: %n = fneg double %q
; CHECK-NEXT: [[TN:%.*]] = fneg double [[TQ]]
; CHECK-NEXT: ret double [[TN]]

; A square: x * dx + dx * x is one product added to itself, as is the
; product of fmuladd(-x, x, c) (the tangent of -x is -dx); the results are
; bit for bit those of the general rule.
define double @squares(double %x, double %c) {
  %sq = fmul double %x, %x
  %nx = fneg double %x
  %f = call double @llvm.fmuladd.f64(double %nx, double %x, double %sq)
  ret double %f
}
declare double @llvm.fmuladd.f64(double, double, double)

define double @request_squares(double %x, double %c) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @squares, double %x, double 1.0, double %c, double 0.0)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_squares(
; The power rule: d(x * x) = (2 x) dx; d(-x * x) = (2 (-x)) dx.
; CHECK:      %sq = fmul double %x, %x
; CHECK-NEXT: [[TWOX:%.*]] = fmul double %x, 2.000000e+00
; CHECK-NEXT: [[TSQ:%.*]] = fmul double [[TWOX]], %x.shadow
; CHECK:      %f = call double @llvm.fmuladd.f64(double %nx, double %x, double %sq)
; CHECK-NEXT: [[TWONX:%.*]] = fmul double %nx, 2.000000e+00
; CHECK-NEXT: [[S:%.*]] = fmul double [[TWONX]], %x.shadow
; CHECK-NEXT: [[TF:%.*]] = fadd reassoc nsz double [[S]], [[TSQ]]
; CHECK-NEXT: ret double [[TF]]

; A cubic with a coefficient, 0.01 x (-x) x as instcombine leaves it: the
; tangent is 3 (-0.01 x^2) dx, two products, not the product rule's five.
define double @cubic(double %x) {
  %a = fmul double %x, 1.000000e-02
  %n = fneg double %x
  %a2 = fmul double %a, %n
  %c = fmul double %a2, %x
  ret double %c
}

define double @request_cubic(double %x) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @cubic, double %x, double 1.0)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_cubic(
; CHECK:      %a2 = fmul double %a, %n
; CHECK:      %c = fmul double %a2, %x
; CHECK-NEXT: [[THREE:%.*]] = fmul double %a2, 3.000000e+00
; CHECK-NEXT: [[TC:%.*]] = fmul double [[THREE]], %x.shadow
; CHECK-NEXT: ret double [[TC]]
