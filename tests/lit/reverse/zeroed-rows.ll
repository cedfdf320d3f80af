; Known-zero adjoints (adcore/lib/optimize/ZeroedRegions.cpp): a nest that
; stores zero into every element of a region of rows (zero.outer/zero.loop: dx's
; inner points) leaves that memory zero where it ends; a gathered loop in
; rows after it (GatheredRows.cpp) that adds into those elements gets a
; fourth copy of its middle row's loop, which stores its sums without
; loading the zeros. The copy runs when a flag (set where the zeroing nest
; ends, cleared by whatever may write the memory; phis where paths meet)
; is set and the rows the loop loads lie inside the rows zeroed (the same
; stride; checked before the outer loop), and the plain stores on the
; way there lie apart from those rows. A loop alone (loops) is a region of
; one row. The numbers: tests/e2e/rev_stencil_windows.c (grid5_steps,
; grid5_between, grid5_fewer, smooth3_steps) and gathered-updates.test.
;
; RUN: adcc-opt -passes=adcc-gathered-updates %s -o - | FileCheck %s
; RUN: adcc-opt -passes=adcc-gathered-updates -adcc-known-zero-rows=false \
; RUN:   %s -o - | FileCheck %s --check-prefix=OFF
; OFF-NOT: adcc.zeroed

; pair: the zeroing nest, then the nest adding into dx. The region is
; computed after the first (rows i = r..1, elements 1..m-2 of each, 8m
; bytes apart) and compared with the rows the middle rows load.
; CHECK-LABEL: define void @pair(
; CHECK: br i1 %zodone, label %adcc.zeroed, label %zero.outer
; CHECK: adcc.zeroed:
; CHECK: %[[ZL:umin[0-9]*]] = call i64 @llvm.umin.i64
; CHECK: %[[ZW:[0-9]+]] = add i64 %{{[0-9]+}}, -16
; CHECK: %[[ZS:smax[0-9]*]] = call i64 @llvm.smax.i64
; CHECK: %[[WL:umin[0-9]*]] = call i64 @llvm.umin.i64
; CHECK: %[[WW:[0-9]+]] = add i64 %{{[0-9]+}}, -32
; CHECK: %[[WS:smax[0-9]*]] = call i64 @llvm.smax.i64
; CHECK: icmp eq i64 %[[ZS]], %[[WS]]
; CHECK: icmp uge i64 %[[WL]], %[[ZL]]
; CHECK: icmp uge i64 %[[ZW]], %[[WW]]
; CHECK: %adcc.zeroed.inside = and i1
;
; The middle row's copy: the element starts from zero (no load of dx),
; then the row before's push, its own three, the row after's.
; CHECK: adcc.zeroedrow:
; CHECK-NOT: load double, ptr %{{p[0-9m]+}}
; CHECK: %[[S0:[0-9]+]] = fadd double 0.000000e+00, %{{a[0-9]+}}
; CHECK: store double %{{[0-9]+}}, ptr %{{pm[0-9]+}}
; CHECK: br i1 %{{[0-9]+}}, label %adcc.zeroedrow.last, label %adcc.zeroedrow
; CHECK: adcc.rows.middle:
; CHECK-NEXT: br i1 %adcc.zeroed.inside, label %adcc.zeroedrow.first, label %adcc.row.first
; CHECK-LABEL: {{^}}exit:

; steps: a loop around the adding nest and then the zeroing one. In its
; first iteration dx holds what the caller gave (the flag is false, from
; the entry); from the second on, the zeroing nest of the iteration before
; left it zero (true, from the latch); the region's values come the same
; way.
; CHECK-LABEL: define void @steps(
; CHECK: step:
; CHECK: %[[FLAG:adcc.zeroed[0-9]*]] = phi i1 [ false, %entry ], [ true, %step.latch ]
; CHECK: and i1 %[[FLAG]],
; CHECK: %adcc.zeroed.inside = and i1
; CHECK: adcc.zeroedrow:
; CHECK: fadd double 0.000000e+00,
; CHECK: adcc.rows.middle:
; CHECK-NEXT: br i1 %adcc.zeroed.inside, label %adcc.zeroedrow.first, label %adcc.row.first
; CHECK-LABEL: {{^}}exit:

; between: a store into dx on the way from the zeroing nest (blocks with
; one predecessor each) is checked apart from the rows the loop loads.
; CHECK-LABEL: define void @between(
; CHECK: mid:
; CHECK-NEXT: store double 1.000000e+00, ptr %dx
; CHECK: %[[END:[0-9]+]] = add i64 %{{[0-9]+}}, %{{[0-9]+}}
; CHECK-NEXT: %[[AT:[0-9]+]] = ptrtoint ptr %dx to i64
; CHECK-NEXT: %[[AFTER:[0-9]+]] = add i64 %[[AT]], 8
; CHECK-NEXT: %[[HIGH:[0-9]+]] = icmp uge i64 %[[AT]], %[[END]]
; CHECK-NEXT: %[[LOW:[0-9]+]] = icmp ule i64 %[[AFTER]], %{{umin[0-9]*}}
; CHECK-NEXT: %[[APART:[0-9]+]] = or i1 %[[LOW]], %[[HIGH]]
; CHECK-NEXT: %adcc.zeroed.inside = and i1 %{{[0-9]+}}, %[[APART]]
; CHECK: adcc.zeroedrow:
; CHECK-LABEL: {{^}}exit:

; between_memset: a memset of dx between the nests clears the flag (only
; plain stores are checked apart): no copy.
; CHECK-LABEL: define void @between_memset(
; CHECK-NOT: adcc.zeroedrow
; CHECK: adcc.row:
; CHECK-NOT: adcc.zeroedrow
; CHECK-LABEL: {{^}}exit:

define void @pair(ptr noalias %dx, ptr noalias %dy, i64 %m, i64 %r) {
entry:
  %cols = add i64 %m, -2
  br label %zero.outer

zero.outer:
  %zi = phi i64 [ %r, %entry ], [ %zi.next, %zero.latch ]
  %zrow = mul i64 %zi, %m
  br label %zero.loop

zero.loop:
  %zj = phi i64 [ %cols, %zero.outer ], [ %zj.next, %zero.loop ]
  %zc = add i64 %zrow, %zj
  %zp = getelementptr double, ptr %dx, i64 %zc
  %zg = load double, ptr %zp, align 8
  store double 0.0, ptr %zp, align 8
  %zq = getelementptr double, ptr %dy, i64 %zc
  %zy = load double, ptr %zq, align 8
  %zs = fadd double %zy, %zg
  store double %zs, ptr %zq, align 8
  %zdone = icmp eq i64 %zj, 1
  %zj.next = add i64 %zj, -1
  br i1 %zdone, label %zero.latch, label %zero.loop

zero.latch:
  %zodone = icmp eq i64 %zi, 1
  %zi.next = add i64 %zi, -1
  br i1 %zodone, label %outer, label %zero.outer

outer:
  %i = phi i64 [ %r, %zero.latch ], [ %i.next, %outer.latch ]
  %row = mul i64 %i, %m
  br label %loop

loop:
  %j = phi i64 [ %cols, %outer ], [ %j.next, %loop ]
  %c = add i64 %row, %j
  %pw = getelementptr double, ptr %dy, i64 %c
  %g = load double, ptr %pw, align 8
  store double 0.0, ptr %pw, align 8
  %a = fmul double %g, 2.5e-1
  %b = fmul double %g, 5.0e-1
  %p0 = getelementptr double, ptr %dx, i64 %c
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %a
  store double %y1, ptr %pp, align 8
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd double %x2, %b
  store double %y2, ptr %p0, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fadd double %x3, %a
  store double %y3, ptr %pm, align 8
  %pd = getelementptr double, ptr %p0, i64 %m
  %x4 = load double, ptr %pd, align 8
  %y4 = fadd double %x4, %a
  store double %y4, ptr %pd, align 8
  %cu = sub i64 %c, %m
  %pu = getelementptr double, ptr %dx, i64 %cu
  %x5 = load double, ptr %pu, align 8
  %y5 = fadd double %x5, %a
  store double %y5, ptr %pu, align 8
  %done = icmp eq i64 %j, 1
  %j.next = add i64 %j, -1
  br i1 %done, label %outer.latch, label %loop

outer.latch:
  %odone = icmp eq i64 %i, 1
  %i.next = add i64 %i, -1
  br i1 %odone, label %exit, label %outer

exit:
  ret void
}

define void @steps(ptr noalias %dx, ptr noalias %dy, i64 %m, i64 %r, i64 %n) {
entry:
  %cols = add i64 %m, -2
  br label %step

step:
  %s = phi i64 [ %n, %entry ], [ %s.next, %step.latch ]
  br label %outer

outer:
  %i = phi i64 [ %r, %step ], [ %i.next, %outer.latch ]
  %row = mul i64 %i, %m
  br label %loop

loop:
  %j = phi i64 [ %cols, %outer ], [ %j.next, %loop ]
  %c = add i64 %row, %j
  %pw = getelementptr double, ptr %dy, i64 %c
  %g = load double, ptr %pw, align 8
  store double 0.0, ptr %pw, align 8
  %a = fmul double %g, 2.5e-1
  %b = fmul double %g, 5.0e-1
  %p0 = getelementptr double, ptr %dx, i64 %c
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %a
  store double %y1, ptr %pp, align 8
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd double %x2, %b
  store double %y2, ptr %p0, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fadd double %x3, %a
  store double %y3, ptr %pm, align 8
  %pd = getelementptr double, ptr %p0, i64 %m
  %x4 = load double, ptr %pd, align 8
  %y4 = fadd double %x4, %a
  store double %y4, ptr %pd, align 8
  %cu = sub i64 %c, %m
  %pu = getelementptr double, ptr %dx, i64 %cu
  %x5 = load double, ptr %pu, align 8
  %y5 = fadd double %x5, %a
  store double %y5, ptr %pu, align 8
  %done = icmp eq i64 %j, 1
  %j.next = add i64 %j, -1
  br i1 %done, label %outer.latch, label %loop

outer.latch:
  %odone = icmp eq i64 %i, 1
  %i.next = add i64 %i, -1
  br i1 %odone, label %zero.outer, label %outer

zero.outer:
  %zi = phi i64 [ %r, %outer.latch ], [ %zi.next, %zero.latch ]
  %zrow = mul i64 %zi, %m
  br label %zero.loop

zero.loop:
  %zj = phi i64 [ %cols, %zero.outer ], [ %zj.next, %zero.loop ]
  %zc = add i64 %zrow, %zj
  %zp = getelementptr double, ptr %dx, i64 %zc
  %zg = load double, ptr %zp, align 8
  store double 0.0, ptr %zp, align 8
  %zq = getelementptr double, ptr %dy, i64 %zc
  %zy = load double, ptr %zq, align 8
  %zs = fadd double %zy, %zg
  store double %zs, ptr %zq, align 8
  %zdone = icmp eq i64 %zj, 1
  %zj.next = add i64 %zj, -1
  br i1 %zdone, label %zero.latch, label %zero.loop

zero.latch:
  %zodone = icmp eq i64 %zi, 1
  %zi.next = add i64 %zi, -1
  br i1 %zodone, label %step.latch, label %zero.outer

step.latch:
  %sdone = icmp eq i64 %s, 0
  %s.next = add i64 %s, -1
  br i1 %sdone, label %exit, label %step

exit:
  ret void
}

define void @between(ptr noalias %dx, ptr noalias %dy, i64 %m, i64 %r) {
entry:
  %cols = add i64 %m, -2
  br label %zero.outer

zero.outer:
  %zi = phi i64 [ %r, %entry ], [ %zi.next, %zero.latch ]
  %zrow = mul i64 %zi, %m
  br label %zero.loop

zero.loop:
  %zj = phi i64 [ %cols, %zero.outer ], [ %zj.next, %zero.loop ]
  %zc = add i64 %zrow, %zj
  %zp = getelementptr double, ptr %dx, i64 %zc
  %zg = load double, ptr %zp, align 8
  store double 0.0, ptr %zp, align 8
  %zq = getelementptr double, ptr %dy, i64 %zc
  %zy = load double, ptr %zq, align 8
  %zs = fadd double %zy, %zg
  store double %zs, ptr %zq, align 8
  %zdone = icmp eq i64 %zj, 1
  %zj.next = add i64 %zj, -1
  br i1 %zdone, label %zero.latch, label %zero.loop

zero.latch:
  %zodone = icmp eq i64 %zi, 1
  %zi.next = add i64 %zi, -1
  br i1 %zodone, label %mid, label %zero.outer

mid:
  store double 1.0, ptr %dx, align 8
  br label %pre

pre:
  br label %outer

outer:
  %i = phi i64 [ %r, %pre ], [ %i.next, %outer.latch ]
  %row = mul i64 %i, %m
  br label %loop

loop:
  %j = phi i64 [ %cols, %outer ], [ %j.next, %loop ]
  %c = add i64 %row, %j
  %pw = getelementptr double, ptr %dy, i64 %c
  %g = load double, ptr %pw, align 8
  store double 0.0, ptr %pw, align 8
  %a = fmul double %g, 2.5e-1
  %b = fmul double %g, 5.0e-1
  %p0 = getelementptr double, ptr %dx, i64 %c
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %a
  store double %y1, ptr %pp, align 8
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd double %x2, %b
  store double %y2, ptr %p0, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fadd double %x3, %a
  store double %y3, ptr %pm, align 8
  %pd = getelementptr double, ptr %p0, i64 %m
  %x4 = load double, ptr %pd, align 8
  %y4 = fadd double %x4, %a
  store double %y4, ptr %pd, align 8
  %cu = sub i64 %c, %m
  %pu = getelementptr double, ptr %dx, i64 %cu
  %x5 = load double, ptr %pu, align 8
  %y5 = fadd double %x5, %a
  store double %y5, ptr %pu, align 8
  %done = icmp eq i64 %j, 1
  %j.next = add i64 %j, -1
  br i1 %done, label %outer.latch, label %loop

outer.latch:
  %odone = icmp eq i64 %i, 1
  %i.next = add i64 %i, -1
  br i1 %odone, label %exit, label %outer

exit:
  ret void
}

define void @between_memset(ptr noalias %dx, ptr noalias %dy, i64 %m, i64 %r) {
entry:
  %cols = add i64 %m, -2
  br label %zero.outer

zero.outer:
  %zi = phi i64 [ %r, %entry ], [ %zi.next, %zero.latch ]
  %zrow = mul i64 %zi, %m
  br label %zero.loop

zero.loop:
  %zj = phi i64 [ %cols, %zero.outer ], [ %zj.next, %zero.loop ]
  %zc = add i64 %zrow, %zj
  %zp = getelementptr double, ptr %dx, i64 %zc
  %zg = load double, ptr %zp, align 8
  store double 0.0, ptr %zp, align 8
  %zq = getelementptr double, ptr %dy, i64 %zc
  %zy = load double, ptr %zq, align 8
  %zs = fadd double %zy, %zg
  store double %zs, ptr %zq, align 8
  %zdone = icmp eq i64 %zj, 1
  %zj.next = add i64 %zj, -1
  br i1 %zdone, label %zero.latch, label %zero.loop

zero.latch:
  %zodone = icmp eq i64 %zi, 1
  %zi.next = add i64 %zi, -1
  br i1 %zodone, label %mid, label %zero.outer

mid:
  call void @llvm.memset.p0.i64(ptr %dx, i8 0, i64 16, i1 false)
  br label %pre

pre:
  br label %outer

outer:
  %i = phi i64 [ %r, %pre ], [ %i.next, %outer.latch ]
  %row = mul i64 %i, %m
  br label %loop

loop:
  %j = phi i64 [ %cols, %outer ], [ %j.next, %loop ]
  %c = add i64 %row, %j
  %pw = getelementptr double, ptr %dy, i64 %c
  %g = load double, ptr %pw, align 8
  store double 0.0, ptr %pw, align 8
  %a = fmul double %g, 2.5e-1
  %b = fmul double %g, 5.0e-1
  %p0 = getelementptr double, ptr %dx, i64 %c
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %a
  store double %y1, ptr %pp, align 8
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd double %x2, %b
  store double %y2, ptr %p0, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fadd double %x3, %a
  store double %y3, ptr %pm, align 8
  %pd = getelementptr double, ptr %p0, i64 %m
  %x4 = load double, ptr %pd, align 8
  %y4 = fadd double %x4, %a
  store double %y4, ptr %pd, align 8
  %cu = sub i64 %c, %m
  %pu = getelementptr double, ptr %dx, i64 %cu
  %x5 = load double, ptr %pu, align 8
  %y5 = fadd double %x5, %a
  store double %y5, ptr %pu, align 8
  %done = icmp eq i64 %j, 1
  %j.next = add i64 %j, -1
  br i1 %done, label %outer.latch, label %loop

outer.latch:
  %odone = icmp eq i64 %i, 1
  %i.next = add i64 %i, -1
  br i1 %odone, label %exit, label %outer

exit:
  ret void
}

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; loops: the same for a loop alone (one row): after the loop zeroing
; dx[1..m-2], the gathered loop adding into dx gets a copy whose elements
; start from zero, picked by the check before it.
; CHECK-LABEL: define void @loops(
; CHECK: adcc.zeroed:
; CHECK: %adcc.zeroed.inside = and i1
; CHECK: br i1 %{{[0-9a-z.]+}}, label %adcc.gather.zeroed, label %loop.unchanged
; CHECK: adcc.gather.zeroed:
; CHECK-NEXT: br i1 %adcc.zeroed.inside, label %adcc.zeroedgather.first, label %adcc.gather.first
; CHECK: adcc.zeroedgather:
; CHECK-NOT: load double, ptr %{{p[0-9m]+}}
; CHECK: fadd double 0.000000e+00,
; CHECK: br i1 %{{[0-9]+}}, label %adcc.zeroedgather.last, label %adcc.zeroedgather
; CHECK-LABEL: {{^}}exit:
define void @loops(ptr noalias %dx, ptr noalias %dy, i64 %m) {
entry:
  %cols = add i64 %m, -2
  br label %zero.loop

zero.loop:
  %zj = phi i64 [ %cols, %entry ], [ %zj.next, %zero.loop ]
  %zp = getelementptr double, ptr %dx, i64 %zj
  %zg = load double, ptr %zp, align 8
  store double 0.0, ptr %zp, align 8
  %zq = getelementptr double, ptr %dy, i64 %zj
  %zy = load double, ptr %zq, align 8
  %zs = fadd double %zy, %zg
  store double %zs, ptr %zq, align 8
  %zdone = icmp eq i64 %zj, 1
  %zj.next = add i64 %zj, -1
  br i1 %zdone, label %pre, label %zero.loop

pre:
  br label %loop

loop:
  %j = phi i64 [ %cols, %pre ], [ %j.next, %loop ]
  %pw = getelementptr double, ptr %dy, i64 %j
  %g = load double, ptr %pw, align 8
  store double 0.0, ptr %pw, align 8
  %a = fmul double %g, 2.5e-1
  %b = fmul double %g, 5.0e-1
  %p0 = getelementptr double, ptr %dx, i64 %j
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %a
  store double %y1, ptr %pp, align 8
  %x2 = load double, ptr %p0, align 8
  %y2 = fadd double %x2, %b
  store double %y2, ptr %p0, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fadd double %x3, %a
  store double %y3, ptr %pm, align 8
  %done = icmp eq i64 %j, 1
  %j.next = add i64 %j, -1
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
