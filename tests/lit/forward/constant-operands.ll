; Inactive operands produce no tangent code; an entirely inactive value has
; a zero tangent.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

@enzyme_const = external global i32
declare double @__enzyme_fwddiff(ptr, ...)

define double @scale(double %x, double %c) {
  %m = fmul double %x, %c
  %k = fmul double %c, %c
  %r = fadd double %m, %k
  ret double %r
}

define double @request(double %x, double %c) {
  %mark = load i32, ptr @enzyme_const
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @scale, double %x, double 1.0, i32 %mark, double %c)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_scale(double %x, double %x.shadow, double %c)
; CHECK:      %m = fmul double %x, %c
; CHECK-NEXT: [[TM:%.*]] = fmul double %x.shadow, %c
; CHECK-NEXT: %k = fmul double %c, %c
; CHECK-NEXT: %r = fadd double %m, %k
; CHECK-NEXT: ret double [[TM]]
