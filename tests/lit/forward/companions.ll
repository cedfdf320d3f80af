; The partial of sin x is cos x: when the primal computes cos x too (in the
; same block, before or after), its tangent uses that value instead of
; calling cos again; cos's partial is minus sin x. A companion after the
; call moves up to just after it.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare double @sin(double)
declare double @cos(double)

define double @rot(double %t, double %a) {
  %c = call double @cos(double %t)
  %ac = fmul double %a, %c
  %s = call double @sin(double %t)
  %as = fmul double %a, %s
  %r = fadd double %ac, %as
  ret double %r
}

define double @request(double %t, double %a) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @rot, double %t, double 1.0, double %a, double 0.0)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_rot(
; CHECK:      %c = call double @cos(double %t)
; CHECK-NEXT: %s = call double @sin(double %t)
; CHECK-NEXT: fmul double %c, %t.shadow
; CHECK-NEXT: [[NS:%.*]] = fneg double %s
; CHECK-NEXT: fmul double [[NS]], %t.shadow
; CHECK-NOT:  call double @llvm.{{sin|cos}}
; CHECK:      ret double
