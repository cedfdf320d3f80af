; The gathered form of stencil reverse loops
; (adcore/lib/optimize/GatheredUpdates.cpp): a loop over the elements, each
; loading and storing its element once and adding the contributions of the
; iterations that reach it, recomputed from those iterations, earliest first;
; the elements at the ends before and after it; the loop's other stores KHi
; elements later; the unchanged loop when there are too few iterations or the
; arrays meet. The numbers: tests/e2e/rev_stencil_windows.c, and
; gathered-updates.test (with and without the rewrite).
;
; RUN: adcc-opt -passes=adcc-gathered-updates %s -o - | FileCheck %s

; down3: iteration s (t = n - s) adds 2g into du[t+1], 3g into du[t], -5g
; into du[t-1]. Element E of the loop is du[n-1-E]: the iterations s, s+1,
; s+2 of its three updates, in that order; dw[n-s] is zeroed after element s
; (no later element reads iteration s).
; CHECK-LABEL: define void @down3(
; CHECK: %adcc.enough = icmp uge i64 %{{.*}}, 2
; CHECK: br i1 %adcc.enough, label %adcc.gather.first, label %loop.unchanged
; CHECK: adcc.gather.first:
; CHECK: store double
; CHECK: store double
; CHECK: br label %adcc.gather
; CHECK: adcc.gather:
; CHECK-NEXT: %adcc.m = phi i64 [ 0, %adcc.gather.first ], [ %adcc.m.next, %adcc.gather ]
; CHECK: %[[EL:[0-9]+]] = load double, ptr %[[PM:pm[0-9]+]]
; CHECK: %[[G0:g[0-9]+]] = load double, ptr %[[PW:pw[0-9]+]]
; CHECK: %[[C:c[0-9]+]] = fmul double %[[G0]], 5.0
; CHECK: %[[S1:[0-9]+]] = fsub double %[[EL]], %[[C]]
; CHECK: %[[G1:g[0-9]+]] = load double
; CHECK: %[[B:b[0-9]+]] = fmul double %[[G1]], 3.0
; CHECK: %[[S2:[0-9]+]] = fadd reassoc nsz double %[[S1]], %[[B]]
; CHECK: %[[G2:g[0-9]+]] = load double
; CHECK: %[[A:a[0-9]+]] = fmul double %[[G2]], 2.0
; CHECK: %[[S3:[0-9]+]] = fadd double %[[S2]], %[[A]]
; CHECK-NEXT: store double %[[S3]], ptr %[[PM]]
; CHECK-NEXT: store double 0.0{{.*}}, ptr %[[PW]]
; CHECK: br i1 %{{[0-9]+}}, label %adcc.gather.last, label %adcc.gather, !llvm.loop
; CHECK: adcc.gather.last:
; CHECK: br label %exit
; CHECK: loop.unchanged:
; CHECK: !llvm.loop ![[FALLBACK:[0-9]+]]
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
  %y3 = fsub double %x3, %c
  store double %y3, ptr %pm, align 8
  %done = icmp eq i64 %t, 1
  %t.next = add i64 %t, -1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; A value carried from the iteration before (the center's adjoint, added
; with the next iteration's update of the same element), and the last one
; used after the loop.
; The last iteration's %center, used after the loop, is computed before it;
; the carried value is the iteration before's center, -0.0 in the first.
; CHECK-LABEL: define double @carried(
; CHECK: adcc.gather.first:
; CHECK: %[[LASTG:g[0-9]+]] = load double
; CHECK-NEXT: %[[LAST:center[0-9]+]] = fmul double %[[LASTG]], 5.0
; CHECK: %[[SIDE0:side[0-9]+]] = fmul double
; CHECK-NEXT: fadd double %[[SIDE0]], -0.0
; CHECK: adcc.gather:
; CHECK: %[[IT:adcc.iter[0-9]*]] = sub i64 %adcc.t, -2
; CHECK: %adcc.iter{{[0-9]+}} = sub i64 %[[IT]], 1
; CHECK: exit:
; CHECK-NEXT: %center.lcssa = phi double [ %[[LAST]], %adcc.gather.last ], [ %center.unchanged, %loop.unchanged ]
define double @carried(ptr noalias %du, ptr noalias %dw, i64 %n) {
entry:
  br label %loop

loop:
  %carry = phi double [ -0.0, %entry ], [ %center, %loop ]
  %i = phi i64 [ %n, %entry ], [ %i.next, %loop ]
  %pw = getelementptr double, ptr %dw, i64 %i
  %g = load double, ptr %pw, align 8
  store double 0.0, ptr %pw, align 8
  %side = fmul double %g, 0.25
  %center = fmul double %g, 0.5
  %sum = fadd double %side, %carry
  %p0 = getelementptr double, ptr %du, i64 %i
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %sum, %x1
  store double %y1, ptr %pp, align 8
  %x2 = load double, ptr %pm, align 8
  %y2 = fadd double %x2, %side
  store double %y2, ptr %pm, align 8
  %done = icmp eq i64 %i, 1
  %i.next = add i64 %i, -1
  br i1 %done, label %exit, label %loop

exit:
  ret double %center
}

; Walking up, with an update of another row (a single update: stored with
; its iteration) and arrays that may meet: checked before the loop.
; CHECK-LABEL: define void @rows(
; CHECK: %adcc.apart = or i1
; CHECK: br i1 %{{[0-9]+}}, label %adcc.gather.first, label %loop.unchanged
; CHECK: adcc.gather:
; CHECK: %adcc.t = add i64 %adcc.m, 2
; CHECK: store double %{{[0-9]+}}, ptr %pp
; CHECK: %[[ROW:pr[0-9]+]] = getelementptr double, ptr %{{.*}}, i64 %row
; CHECK-NEXT: %[[OLD:x3[0-9]+]] = load double, ptr %[[ROW]]
; CHECK-NEXT: %[[NEW:y3[0-9]+]] = fadd double %[[OLD]]
; CHECK-NEXT: store double 0.0{{.*}}, ptr %pw
; CHECK-NEXT: store double %[[NEW]], ptr %[[ROW]]
define void @rows(ptr %du, ptr %dw, i64 %n, i64 %row) {
entry:
  br label %loop

loop:
  %t = phi i64 [ 1, %entry ], [ %t.next, %loop ]
  %pw = getelementptr double, ptr %dw, i64 %t
  %g = load double, ptr %pw, align 8
  store double 0.0, ptr %pw, align 8
  %a = fmul double %g, 0.2
  %p0 = getelementptr double, ptr %du, i64 %t
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %pr = getelementptr double, ptr %p0, i64 %row
  %x1 = load double, ptr %pm, align 8
  %y1 = fadd double %x1, %a
  store double %y1, ptr %pm, align 8
  %x2 = load double, ptr %pp, align 8
  %y2 = fadd double %x2, %a
  store double %y2, ptr %pp, align 8
  %x3 = load double, ptr %pr, align 8
  %y3 = fadd double %x3, %a
  store double %y3, ptr %pr, align 8
  %t.next = add i64 %t, 1
  %done = icmp eq i64 %t.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Addends that would compute a square root at two offsets: windows instead.
; CHECK-LABEL: define void @costly(
; CHECK-NOT: adcc.gather
; CHECK: ret void
define void @costly(ptr noalias %du, ptr noalias %dw, i64 %n) {
entry:
  br label %loop

loop:
  %t = phi i64 [ %n, %entry ], [ %t.next, %loop ]
  %pw = getelementptr double, ptr %dw, i64 %t
  %g = load double, ptr %pw, align 8
  %r = call double @llvm.sqrt.f64(double %g)
  %p0 = getelementptr double, ptr %du, i64 %t
  %pp = getelementptr i8, ptr %p0, i64 8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %r
  store double %y1, ptr %pp, align 8
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd double %x2, %r
  store double %y2, ptr %p0, align 8
  %done = icmp eq i64 %t, 1
  %t.next = add i64 %t, -1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; A sum carried through every iteration: not from one iteration before.
; CHECK-LABEL: define double @reduction(
; CHECK-NOT: adcc.gather
; CHECK: ret double

; The unchanged copy is marked: neither rewrite takes it again.
; CHECK: ![[FALLBACK]] = distinct !{![[FALLBACK]], ![[MARK:[0-9]+]], ![[VEC:[0-9]+]], ![[UNROLL:[0-9]+]]}
; CHECK: ![[MARK]] = !{!"adcc.accumulation.fallback"}
define double @reduction(ptr noalias %du, ptr noalias %dw, i64 %n) {
entry:
  br label %loop

loop:
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %t = phi i64 [ %n, %entry ], [ %t.next, %loop ]
  %pw = getelementptr double, ptr %dw, i64 %t
  %g = load double, ptr %pw, align 8
  %acc.next = fadd double %acc, %g
  %p0 = getelementptr double, ptr %du, i64 %t
  %pp = getelementptr i8, ptr %p0, i64 8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %acc.next
  store double %y1, ptr %pp, align 8
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd double %x2, %g
  store double %y2, ptr %p0, align 8
  %done = icmp eq i64 %t, 1
  %t.next = add i64 %t, -1
  br i1 %done, label %exit, label %loop

exit:
  ret double %acc.next
}

declare double @llvm.sqrt.f64(double)
