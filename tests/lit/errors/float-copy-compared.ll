; A double copied as an i64 through a phi whose integer is also compared
; (so FloatCopies.cpp does not retype it) is reported, not differentiated
; as integer data: that gave dx = 0 where the copy makes it 1.
; RUN: %expect-exit 1 adcc-opt -passes=adcc %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: cannot differentiate 'h' in reverse mode: a floating-point value is copied as an integer

define void @h(ptr %x, ptr %y, i32 %c, ptr %n) {
entry:
  %cc = icmp ne i32 %c, 0
  br i1 %cc, label %a, label %j

a:
  %va = load i64, ptr %x, align 8, !tbaa !0
  br label %j

j:
  %v = phi i64 [ %va, %a ], [ 0, %entry ]
  store i64 %v, ptr %y, align 8, !tbaa !0
  %z = icmp eq i64 %v, 0
  %zz = zext i1 %z to i32
  store i32 %zz, ptr %n, align 4
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %c, ptr %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @h, ptr %x, ptr %dx, ptr %y, ptr %dy, i32 %c, ptr %n, ptr %n)
  ret void
}

!0 = !{!1, !1, i64 0}
!1 = !{!"double", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}
