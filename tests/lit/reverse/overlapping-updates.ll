; splitOverlappingUpdates (adcore/lib/optimize/OverlappingUpdates.cpp): a
; packed read-modify-write of shadow memory whose address moves by less
; than its size per iteration is split into one update per element; one
; that moves by its size, one of memory without the shadow scope, and one
; outside a loop stay packed.
; RUN: adcc-opt -passes=adcc-split-overlapping-updates %s -o - | FileCheck %s

; Walking down one element per iteration, adding {a, b} into du[k-1..k].
; CHECK-LABEL: define void @down(
; CHECK: loop:
; CHECK: %[[L0:[0-9a-z.]+]] = load double, ptr %p, align 8, !alias.scope ![[S:[0-9]+]], !noalias ![[N:[0-9]+]]
; CHECK: %[[P1:[0-9a-z.]+]] = getelementptr inbounds i8, ptr %p, i64 8
; CHECK: %[[L1:[0-9a-z.]+]] = load double, ptr %[[P1]], align 8, !alias.scope ![[S]], !noalias ![[N]]
; CHECK: %[[A0:[0-9a-z.]+]] = fadd fast double %[[L0]], %a
; CHECK: store double %[[A0]], ptr %p, align 8, !alias.scope ![[S]], !noalias ![[N]]
; CHECK: %[[A1:[0-9a-z.]+]] = fadd fast double %[[L1]], %b
; CHECK: store double %[[A1]], ptr %[[P1]], align 8
; CHECK-NOT: <2 x double>
; CHECK: ret void
define void @down(ptr noalias %du, double %a, double %b, i64 %n) {
entry:
  br label %loop
loop:
  %k = phi i64 [ %n, %entry ], [ %k.next, %loop ]
  %km1 = add i64 %k, -1
  %p = getelementptr inbounds double, ptr %du, i64 %km1
  %v0 = insertelement <2 x double> poison, double %a, i64 0
  %v = insertelement <2 x double> %v0, double %b, i64 1
  %old = load <2 x double>, ptr %p, align 8, !alias.scope !2, !noalias !4
  %new = fadd fast <2 x double> %old, %v
  store <2 x double> %new, ptr %p, align 8, !alias.scope !2, !noalias !4
  %k.next = add i64 %k, -1
  %done = icmp eq i64 %k.next, 1
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Two elements per iteration: the packed accesses do not overlap.
; CHECK-LABEL: define void @stride2(
; CHECK: load <2 x double>
; CHECK: store <2 x double>
define void @stride2(ptr noalias %du, <2 x double> %v, i64 %n) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %p = getelementptr inbounds double, ptr %du, i64 %k
  %old = load <2 x double>, ptr %p, align 8, !alias.scope !2, !noalias !4
  %new = fadd <2 x double> %old, %v
  store <2 x double> %new, ptr %p, align 8, !alias.scope !2, !noalias !4
  %k.next = add i64 %k, 2
  %done = icmp uge i64 %k.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; The program's own memory (no shadow scope) is not touched.
; CHECK-LABEL: define void @primal(
; CHECK: load <2 x double>
; CHECK: store <2 x double>
define void @primal(ptr noalias %u, <2 x double> %v, i64 %n) {
entry:
  br label %loop
loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %p = getelementptr inbounds double, ptr %u, i64 %k
  %old = load <2 x double>, ptr %p, align 8
  %new = fadd <2 x double> %old, %v
  store <2 x double> %new, ptr %p, align 8
  %k.next = add i64 %k, 1
  %done = icmp uge i64 %k.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: define void @straight(
; CHECK: load <2 x double>
; CHECK: store <2 x double>
define void @straight(ptr noalias %du, <2 x double> %v) {
  %old = load <2 x double>, ptr %du, align 8, !alias.scope !2, !noalias !4
  %new = fadd <2 x double> %old, %v
  store <2 x double> %new, ptr %du, align 8, !alias.scope !2, !noalias !4
  ret void
}

!0 = !{!"adcc.memory"}
!1 = !{!"adcc.shadow", !0}
!2 = !{!1}
!3 = !{!"adcc.primal", !0}
!5 = !{!"adcc.tape", !0}
!4 = !{!3, !5}
