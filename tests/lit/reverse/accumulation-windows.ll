; keepAccumulationsInRegisters on hand-written reverse loops
; (adcore/lib/optimize/AccumulationWindows.cpp).
; RUN: adcc-opt -passes=adcc-accumulation-windows %s -o - | FileCheck %s

; Walking down, adding into du[t+1], du[t], du[t-1]: du[t+1] is complete
; after iteration t. The addends of du[t] (one iteration) and du[t-1] (two)
; wait in phis; the element is loaded and stored once, the additions in the
; original order (the oldest first) with their own flags. The two elements
; still pending are completed after the loop. du and dw are noalias: no
; check.
; CHECK-LABEL: define void @down3(
; CHECK: entry:
; CHECK-NOT: adcc.apart
; CHECK: loop:
; CHECK-NEXT: %[[B1:adcc.waiting[0-9]*]] = phi double [ -0.000000e+00, %entry ], [ %b, %loop ]
; CHECK-NEXT: %[[C2:adcc.waiting[0-9]*]] = phi double [ -0.000000e+00, %entry ], [ %[[C1:adcc.waiting[0-9]*]], %loop ]
; CHECK-NEXT: %[[C1]] = phi double [ -0.000000e+00, %entry ], [ %c, %loop ]
; CHECK-NOT: load double, ptr %p0
; CHECK-NOT: load double, ptr %pm
; CHECK: %x1 = load double, ptr %pp
; CHECK-NEXT: %[[S1:[0-9]+]] = fadd double %x1, %[[C2]]
; CHECK-NEXT: %[[S2:[0-9]+]] = fadd reassoc nsz double %[[S1]], %[[B1]]
; CHECK-NEXT: %y1 = fadd double %[[S2]], %a
; CHECK-NEXT: store double %y1, ptr %pp
; CHECK-NEXT: br i1 %done, label %adcc.window.end, label %loop
; CHECK: adcc.window.end:
; CHECK-DAG: %[[CE:c.end]] = phi double [ %c, %loop ]
; CHECK-DAG: %[[BE:b.end]] = phi double [ %b, %loop ]
; CHECK-DAG: %[[C1E:adcc.waiting[0-9]*.end]] = phi double [ %[[C1]], %loop ]
; CHECK-DAG: %[[PE:pp.end]] = phi ptr [ %pp, %loop ]
; CHECK: %[[E1:[0-9]+]] = getelementptr i8, ptr %[[PE]], i64 -8
; CHECK-NEXT: %[[L1:[0-9]+]] = load double, ptr %[[E1]]
; CHECK-NEXT: %[[A1:[0-9]+]] = fadd double %[[L1]], %[[C1E]]
; CHECK-NEXT: %[[A2:[0-9]+]] = fadd reassoc nsz double %[[A1]], %[[BE]]
; CHECK-NEXT: store double %[[A2]], ptr %[[E1]]
; CHECK-NEXT: %[[E2:[0-9]+]] = getelementptr i8, ptr %[[PE]], i64 -16
; CHECK-NEXT: %[[L2:[0-9]+]] = load double, ptr %[[E2]]
; CHECK-NEXT: %[[A3:[0-9]+]] = fadd double %[[L2]], %[[CE]]
; CHECK-NEXT: store double %[[A3]], ptr %[[E2]]
; CHECK-NEXT: br label %exit
define void @down3(ptr noalias %du, ptr noalias %dw, i64 %n) {
entry:
  br label %loop

loop:
  %t = phi i64 [ %n, %entry ], [ %t.next, %loop ]
  %pw = getelementptr double, ptr %dw, i64 %t
  %g = load double, ptr %pw, align 8
  store double 0.0, ptr %pw, align 8
  %a = fmul double %g, 2.0
  %b = fmul double %g, 3.0
  %c = fmul double %g, 5.0
  %p0 = getelementptr double, ptr %du, i64 %t
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %a
  store double %y1, ptr %pp, align 8
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd reassoc nsz double %b, %x2
  store double %y2, ptr %p0, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fadd double %x3, %c
  store double %y3, ptr %pm, align 8
  %done = icmp eq i64 %t, 1
  %t.next = add i64 %t, -1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Another row of the same array (du[t+row]) and dw may meet the window:
; the loop runs rewritten when the address ranges are apart, else as it
; was (marked so that it is not rewritten again). Each kind of access of
; the rewritten loop gets its own scope, declared before the loop.
; CHECK-LABEL: define void @rows(
; CHECK: %adcc.apart = or i1
; CHECK: call void @llvm.experimental.noalias.scope.decl(
; CHECK: br i1 %{{[0-9]+}}, label %loop, label %loop.unchanged
; CHECK: loop:
; CHECK: %x4 = load double, ptr %pr, align 8, !alias.scope
; CHECK: %x1 = load double, ptr %pp, align 8, !alias.scope
; CHECK: exit:
; CHECK-NEXT: %last = phi double [ %a, %adcc.window.end ], [ %a.unchanged, %loop.unchanged ]
; CHECK: loop.unchanged:
; CHECK: %x3.unchanged = load double, ptr %pm.unchanged
; CHECK: br i1 %done.unchanged, label %exit, label %loop.unchanged, !llvm.loop ![[FALLBACK:[0-9]+]]
define void @rows(ptr %du, ptr %dw, i64 %n, i64 %row) {
entry:
  br label %loop

loop:
  %t = phi i64 [ %n, %entry ], [ %t.next, %loop ]
  %pw = getelementptr double, ptr %dw, i64 %t
  %g = load double, ptr %pw, align 8
  %a = fmul double %g, 2.0
  %p0 = getelementptr double, ptr %du, i64 %t
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %pr = getelementptr double, ptr %p0, i64 %row
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %a
  store double %y1, ptr %pp, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fadd double %x3, %g
  store double %y3, ptr %pm, align 8
  %x4 = load double, ptr %pr, align 8
  %y4 = fadd double %x4, %g
  store double %y4, ptr %pr, align 8
  %done = icmp eq i64 %t, 1
  %t.next = add i64 %t, -1
  br i1 %done, label %exit, label %loop

exit:
  %last = phi double [ %a, %loop ]
  ret void
}

; Walking up, float, neighbours two apart (+0 and +2): the lowest element
; is complete first; +2's addend waits two iterations.
; CHECK-LABEL: define void @up_gap(
; CHECK: loop:
; CHECK-NEXT: %[[W2:adcc.waiting[0-9]*]] = phi float [ -0.000000e+00, %entry ], [ %[[W1:adcc.waiting[0-9]*]], %loop ]
; CHECK-NEXT: %[[W1]] = phi float [ -0.000000e+00, %entry ], [ %v, %loop ]
; CHECK: %x0 = load float, ptr %p0
; CHECK-NEXT: %[[S:[0-9]+]] = fadd float %x0, %[[W2]]
; CHECK-NEXT: %y0 = fadd float %[[S]], %v
; CHECK-NEXT: store float %y0, ptr %p0
; CHECK: adcc.window.end:
; CHECK: getelementptr i8, ptr %{{.*}}, i64 4
; CHECK: getelementptr i8, ptr %{{.*}}, i64 8
define void @up_gap(ptr noalias %du, ptr noalias %v.in, i64 %n) {
entry:
  br label %loop

loop:
  %t = phi i64 [ 0, %entry ], [ %t.next, %loop ]
  %pv = getelementptr float, ptr %v.in, i64 %t
  %v = load float, ptr %pv, align 4
  %p0 = getelementptr float, ptr %du, i64 %t
  %p2 = getelementptr float, ptr %p0, i64 2
  %x2 = load float, ptr %p2, align 4
  %y2 = fadd float %x2, %v
  store float %y2, ptr %p2, align 4
  %x0 = load float, ptr %p0, align 4
  %y0 = fadd float %x0, %v
  store float %y0, ptr %p0, align 4
  %t.next = add i64 %t, 1
  %done = icmp eq i64 %t.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; A subtraction from an element (`du[t-1] - v`, how InstCombine writes
; adding a negated product) waits like an addition; before the first
; iteration it subtracts +0.0 (adding -0.0 would turn -0.0 into +0.0).
; CHECK-LABEL: define void @minus(
; CHECK: loop:
; CHECK-NEXT: %[[M2:adcc.waiting[0-9]*]] = phi double [ 0.000000e+00, %entry ], [ %[[M1:adcc.waiting[0-9]*]], %loop ]
; CHECK-NEXT: %[[M1]] = phi double [ 0.000000e+00, %entry ], [ %m, %loop ]
; CHECK: %x1 = load double, ptr %pp
; CHECK-NEXT: %[[S:[0-9]+]] = fsub double %x1, %[[M2]]
; CHECK-NEXT: %y1 = fadd double %[[S]], %g
; CHECK: adcc.window.end:
; CHECK: fsub double %{{[0-9]+}}, %{{.*}}
define void @minus(ptr noalias %du, ptr noalias %dw, i64 %n) {
entry:
  br label %loop

loop:
  %t = phi i64 [ %n, %entry ], [ %t.next, %loop ]
  %pw = getelementptr double, ptr %dw, i64 %t
  %g = load double, ptr %pw, align 8
  %m = fmul double %g, 4.0
  %p0 = getelementptr double, ptr %du, i64 %t
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %g
  store double %y1, ptr %pp, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fsub double %x3, %m
  store double %y3, ptr %pm, align 8
  %done = icmp eq i64 %t, 1
  %t.next = add i64 %t, -1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Left alone: a call in the loop; two additions into one element; and an
; in-place update, whose reverse reads and zeroes du[t] between the
; additions into du[t-1] and du[t+1] (it meets the window in every run:
; no check that would always fail).
; CHECK-LABEL: define void @with_call(
; CHECK-NOT: adcc.waiting
; CHECK-LABEL: define void @same_element(
; CHECK-NOT: adcc.waiting
; CHECK-LABEL: define void @in_place(
; CHECK-NOT: adcc.waiting
; CHECK-NOT: adcc.apart
declare void @opaque()

define void @with_call(ptr noalias %du, i64 %n) {
entry:
  br label %loop

loop:
  %t = phi i64 [ %n, %entry ], [ %t.next, %loop ]
  %p0 = getelementptr double, ptr %du, i64 %t
  %pp = getelementptr i8, ptr %p0, i64 8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, 1.0
  store double %y1, ptr %pp, align 8
  call void @opaque()
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd double %x2, 2.0
  store double %y2, ptr %p0, align 8
  %done = icmp eq i64 %t, 1
  %t.next = add i64 %t, -1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @same_element(ptr noalias %du, i64 %n) {
entry:
  br label %loop

loop:
  %t = phi i64 [ %n, %entry ], [ %t.next, %loop ]
  %p0 = getelementptr double, ptr %du, i64 %t
  %x1 = load double, ptr %p0, align 8
  %y1 = fadd double %x1, 1.0
  store double %y1, ptr %p0, align 8
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd double %x2, 2.0
  store double %y2, ptr %p0, align 8
  %done = icmp eq i64 %t, 1
  %t.next = add i64 %t, -1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @in_place(ptr noalias %du, i64 %n) {
entry:
  br label %loop

loop:
  %t = phi i64 [ %n, %entry ], [ %t.next, %loop ]
  %p0 = getelementptr double, ptr %du, i64 %t
  %g = load double, ptr %p0, align 8
  store double 0.0, ptr %p0, align 8
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %g
  store double %y1, ptr %pp, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fadd double %x3, %g
  store double %y3, ptr %pm, align 8
  %done = icmp eq i64 %t, 1
  %t.next = add i64 %t, -1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; The unchanged copy is marked, and neither vectorized nor unrolled.
; CHECK: ![[FALLBACK]] = distinct !{![[FALLBACK]], ![[MARK:[0-9]+]], ![[DONE:[0-9]+]], ![[KEEP:[0-9]+]]}
; CHECK: ![[MARK]] = !{!"adcc.accumulation.fallback"}
; CHECK: ![[DONE]] = !{!"llvm.loop.isvectorized", i32 1}
; CHECK: ![[KEEP]] = !{!"llvm.loop.unroll.disable"}
