; At -O2 a double that is only copied may travel as an i64 through a phi
; (a copy loop into a local array, unrolled); the reverse sweep needs to see
; a double there. Integer loads joined by phis and selects and only stored,
; where the TBAA of the loads and stores and casts from or to double say
; double and nothing else, are retyped as doubles before differentiation
; (adcore/lib/prepare/FloatCopies.cpp; adfuzz seeds 112 and 5234 found it).
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

; CHECK-LABEL: define double @f(
; CHECK: a:
; CHECK-NEXT: %va = load double, ptr %x, align 8, !tbaa
; CHECK: b:
; CHECK-NEXT: %vb = load double, ptr %x1p, align 8, !tbaa
; CHECK: j:
; CHECK-NEXT: %v = phi double [ %va, %a ], [ %vb, %b ]
; CHECK-NEXT: %w = select i1 %c, double %v, double 1.000000e+00
; CHECK-NEXT: store double %w, ptr %y, align 8, !tbaa
; CHECK-LABEL: define double @g(
; CHECK-NOT: __enzyme_autodiff
; CHECK: ret double
; A load without TBAA and the bits of a double (a cast) joined by a phi:
; the cast and the store's TBAA say double.
; CHECK-LABEL: define void @k(
; CHECK: a:
; CHECK-NEXT: %va = load double, ptr %x, align 8
; CHECK: j:
; CHECK-NEXT: %v = phi double [ %va, %a ], [ %d, %entry ]
; CHECK-NEXT: store double %v, ptr %y, align 8, !tbaa

define double @f(ptr %x, ptr %y, i1 %c) {
entry:
  %x1p = getelementptr inbounds double, ptr %x, i64 1
  br i1 %c, label %a, label %b

a:
  %va = load i64, ptr %x, align 8, !tbaa !0
  br label %j

b:
  %vb = load i64, ptr %x1p, align 8, !tbaa !0
  br label %j

j:
  %v = phi i64 [ %va, %a ], [ %vb, %b ]
  %w = select i1 %c, i64 %v, i64 4607182418800017408
  store i64 %w, ptr %y, align 8, !tbaa !0
  %d = load double, ptr %y, align 8, !tbaa !0
  %r = fmul double %d, %d
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

define double @g(ptr %x, ptr %dx, ptr %y, ptr %dy, i1 %c) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy, i1 %c)
  ret double %r
}

define void @k(ptr %x, ptr %y, i1 %c, double %d) {
entry:
  %bits = bitcast double %d to i64
  br i1 %c, label %a, label %j

a:
  %va = load i64, ptr %x, align 8
  br label %j

j:
  %v = phi i64 [ %va, %a ], [ %bits, %entry ]
  store i64 %v, ptr %y, align 8, !tbaa !0
  ret void
}

define double @gk(ptr %x, ptr %dx, ptr %y, ptr %dy, i1 %c, double %d) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @k, ptr %x, ptr %dx, ptr %y, ptr %dy, i1 %c, double %d)
  ret double %r
}

!0 = !{!1, !1, i64 0}
!1 = !{!"double", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}
