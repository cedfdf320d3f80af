; Calls: a math function uses its rule row; a user function gets its own
; derivative, called with the shadows of its active arguments.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)
declare double @llvm.sin.f64(double)

define double @inner(double %x, i32 %k) {
  %s = call double @llvm.sin.f64(double %x)
  ret double %s
}

define double @outer(double %x) {
  %c = call double @inner(double %x, i32 7)
  %r = fmul double %c, %c
  ret double %r
}

define double @request(double %x) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @outer, double %x, double 1.0)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_outer(double %x, double %x.shadow)
; CHECK:      [[R:%.*]] = call { double, double } @fwddiffe_inner(double %x, double %x.shadow, i32 7)
; CHECK-NEXT: [[P:%.*]] = extractvalue { double, double } [[R]], 0
; CHECK-NEXT: [[T:%.*]] = extractvalue { double, double } [[R]], 1
; CHECK-LABEL: define internal { double, double } @fwddiffe_inner(double %x, double %x.shadow, i32 %k)
; CHECK:      %s = call double @llvm.sin.f64(double %x)
; CHECK-NEXT: [[COS:%.*]] = call double @llvm.cos.f64(double %x)
; CHECK-NEXT: fmul double [[COS]], %x.shadow
