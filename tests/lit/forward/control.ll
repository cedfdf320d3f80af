; Loops: a phi gets a tangent phi, filled from each predecessor.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @power(double %x, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 1.0, %entry ], [ %acc.next, %loop ]
  %acc.next = fmul double %acc, %x
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc.next
}

define double @request(double %x) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @power, double %x, double 1.0, i32 3)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_power(double %x, double %x.shadow, i32 %n)
; CHECK:      loop:
; CHECK-NEXT: %i = phi i32
; CHECK-NEXT: %acc = phi double
; CHECK-NEXT: %acc.tangent = phi double [ 0.000000e+00, %entry ], [ [[NEXT:%.*]], %loop ]
; CHECK:      %acc.next = fmul double %acc, %x
; CHECK-NEXT: [[A:%.*]] = fmul double %acc.tangent, %x
; CHECK-NEXT: [[B:%.*]] = fmul double %acc, %x.shadow
; CHECK-NEXT: [[NEXT]] = fadd reassoc nsz double [[A]], [[B]]
; CHECK:      exit:
; CHECK-NEXT: ret double [[NEXT]]
