; Width 4: the tangent of arithmetic and math functions outside the loops the loop vectorizer
; may take is computed in one <4 x double> vector (the lanes packed from
; their array, splats of the primal operands); inside an innermost loop
; whose floating-point phis are reductions, the lanes stay scalars, which
; the vectorizer then takes over several iterations. A loop with a
; recurrence that is not a reduction (x = x * a + c), or with a call, gets
; vectors, and so do a loop of a few iterations known at compile time (a
; 4x4 matrix product's rows) and a loop that reads floating-point memory at
; addresses loaded in the loop (the bones a vertex names), which the
; vectorizer does not take.
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

; Four iterations (the sum of a 4x2 matrix times a vector): vectors.
define double @rows(ptr %m, ptr %v) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %t = phi double [ 0.0, %entry ], [ %t.next, %loop ]
  %r = shl i64 %i, 1
  %pa = getelementptr double, ptr %m, i64 %r
  %a = load double, ptr %pa
  %x = load double, ptr %v
  %ax = fmul double %a, %x
  %r1 = or disjoint i64 %r, 1
  %pb = getelementptr double, ptr %m, i64 %r1
  %b = load double, ptr %pb
  %py = getelementptr double, ptr %v, i64 1
  %y = load double, ptr %py
  %by = fmul double %b, %y
  %s = fadd double %ax, %by
  %t.next = fadd double %t, %s
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 4
  br i1 %done, label %exit, label %loop
exit:
  ret double %t.next
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_rows(
; CHECK:      loop:
; CHECK:      %ax = fmul double %a, %x
; CHECK:      fmul <4 x double>
; CHECK:      %by = fmul double %b, %y
; CHECK:      fmul <4 x double>
; CHECK:      ret [4 x double]

; Through indices read in the loop (a gather): vectors.
define double @gather(ptr %p, ptr %idx, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %pk = getelementptr i32, ptr %idx, i64 %i
  %k = load i32, ptr %pk
  %k64 = sext i32 %k to i64
  %a = getelementptr double, ptr %p, i64 %k64
  %v = load double, ptr %a
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

; CHECK-LABEL: define internal [4 x double] @fwddiffe4_gather(
; CHECK:      loop:
; CHECK:      %sq = fmul double %v, %v
; CHECK:      fmul <4 x double>
; CHECK:      ret [4 x double]

define void @requests(double %x, double %y, ptr %p, ptr %d0, ptr %d1, ptr %d2, ptr %d3, i64 %n, ptr %x4, ptr %idx) {
  %w = load i32, ptr @enzyme_width
  %c = load i32, ptr @enzyme_const
  %r1 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @product, i32 %w, i32 4, double %x, double 1.0, double 2.0, double 3.0, double 4.0, double %y, double 0.5, double 0.25, double 0.125, double 1.0)
  %r2 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @sum, i32 %w, i32 4, ptr %p, ptr %d0, ptr %d1, ptr %d2, ptr %d3, i64 %n)
  %r3 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @recurrence, i32 %w, i32 4, double %x, double 1.0, double 2.0, double 3.0, double 4.0, i32 %c, double %y, i64 %n)
  %r4 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @calls, i32 %w, i32 4, ptr %p, ptr %d0, ptr %d1, ptr %d2, ptr %d3, i64 %n)
  %r5 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @rows, i32 %w, i32 4, ptr %p, ptr %d0, ptr %d1, ptr %d2, ptr %d3, i32 %c, ptr %x4)
  %r6 = call [4 x double] (ptr, ...) @__enzyme_fwddiff(ptr @gather, i32 %w, i32 4, ptr %p, ptr %d0, ptr %d1, ptr %d2, ptr %d3, i32 %c, ptr %idx, i64 %n)
  ret void
}
