; Width 4: the tangent of arithmetic and math functions outside the loops the loop vectorizer
; may take is computed in one <4 x double> vector (the lanes packed from
; their array, splats of the primal operands); inside an innermost loop
; whose floating-point phis are reductions, the lanes stay scalars, which
; the vectorizer then takes over several iterations. A loop with a
; recurrence that is not a reduction (x = x * a + c), or with a call, gets
; vectors.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

@enzyme_width = external global i32
@enzyme_const = external global i32
declare [4 x double] @__enzyme_fwddiff(ptr, ...)
declare double @exp(double)

; Straight-line code: t(x y) = t(x) y + x t(y), t(x / y) with 1 / y.
define double @product(double %x, double %y) {
  %m = fmul double %x, %y
  %q = fdiv double %m, %y
  %s = fsub double %q, %x
  ret double %s
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_product(
; CHECK:      %m = fmul double %x, %y
; CHECK:      [[TX:%.*]] = insertelement <4 x double> {{.*}}, i64 3
; CHECK:      [[TY:%.*]] = insertelement <4 x double> {{.*}}, i64 3
; CHECK:      [[SY:%.*]] = shufflevector <4 x double> {{.*}}, <4 x i32> zeroinitializer
; CHECK-NEXT: [[A:%.*]] = fmul <4 x double> [[TX]], [[SY]]
; CHECK:      [[SX:%.*]] = shufflevector <4 x double> {{.*}}, <4 x i32> zeroinitializer
; CHECK-NEXT: [[B:%.*]] = fmul <4 x double> [[SX]], [[TY]]
; CHECK-NEXT: fadd reassoc nsz <4 x double> [[A]], [[B]]
; CHECK:      %q = fdiv double %m, %y
; CHECK:      [[R:%.*]] = fdiv double 1.000000e+00, %y
; CHECK:      fmul <4 x double>
; CHECK:      fsub reassoc nsz <4 x double>
; CHECK:      %s = fsub double %q, %x
; CHECK:      fsub reassoc nsz <4 x double>
; CHECK:      ret [4 x double]

; A sum over an array: an innermost loop with a reduction, scalar lanes.
define double @sum(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %a = getelementptr double, ptr %p, i64 %i
  %v = load double, ptr %a
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_sum(
; CHECK-NOT:  x double>
; CHECK:      ret [4 x double]

; A recurrence that is not a reduction: vectors.
define double @recurrence(double %x, double %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %y = phi double [ %x, %entry ], [ %y.next, %loop ]
  %m = fmul double %y, %a
  %y.next = fadd double %m, 1.0
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %y.next
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_recurrence(
; CHECK:      loop:
; CHECK:      %m = fmul double %y, %a
; CHECK:      fmul <4 x double>
; CHECK:      ret [4 x double]

; A call in the loop: vectors.
define double @calls(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %a = getelementptr double, ptr %p, i64 %i
  %v = load double, ptr %a
  %e = call double @exp(double %v)
  %s.next = fadd double %s, %e
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_calls(
; CHECK:      %e = call double @exp(double %v)
; The partial times the tangent, one vector multiplication:
; CHECK:      [[SE:%.*]] = shufflevector <4 x double> {{.*}}, <4 x i32> zeroinitializer
; CHECK:      fmul <4 x double> [[SE]],
; CHECK:      fadd reassoc nsz <4 x double>
; CHECK:      ret [4 x double]

define void @requests(double %x, double %y, ptr %p, ptr %d0, ptr %d1, ptr %d2, ptr %d3, i64 %n) {
  %w = load i32, ptr @enzyme_width
  %c = load i32, ptr @enzyme_const
  %r1 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @product, i32 %w, i32 4, double %x, double 1.0, double 2.0, double 3.0, double 4.0, double %y, double 0.5, double 0.25, double 0.125, double 1.0)
  %r2 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @sum, i32 %w, i32 4, ptr %p, ptr %d0, ptr %d1, ptr %d2, ptr %d3, i64 %n)
  %r3 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @recurrence, i32 %w, i32 4, double %x, double 1.0, double 2.0, double 3.0, double 4.0, i32 %c, double %y, i64 %n)
  %r4 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @calls, i32 %w, i32 4, ptr %p, ptr %d0, ptr %d1, ptr %d2, ptr %d3, i64 %n)
  ret void
}
