; Rows of a gathered loop (adcore/lib/optimize/GatheredUpdates.cpp, planRows):
; where a gathered reverse loop runs once per iteration of a loop around it,
; and its single updates of the rows before and after (a 2-D stencil's
; dx[c - m] and dx[c + m]) add values the rows could compute themselves, each
; row adds those into its own elements instead: first what the row before
; pushed, last what the row after would push, loading dx once per element. The
; first and the last row keep the push no row pulls; the zeroing of the adjoint
; the pulls read waits a row (the last row zeroes its own too). A check before
; the outer loop (two rows or more, rows apart) picks these forms; else each
; row runs the gathered loop (or the unchanged one) as before. The numbers:
; tests/e2e/rev_stencil_windows.c (grid5, grid5_down, grid5_rows) and
; gathered-updates.test.
;
; RUN: adcc-opt -passes=adcc-gathered-updates %s -o - | FileCheck %s
; RUN: adcc-opt -passes=adcc-gathered-updates -adcc-gathered-rows=false %s \
; RUN:   -o - | FileCheck %s --check-prefix=NOROWS

; rows5: rows i = r..1 (down, 8m bytes apart), columns j = m-2..1.
; CHECK-LABEL: define void @rows5(
; CHECK: entry:
; CHECK: %adcc.tworows = icmp uge i64 %{{[0-9]+}}, 1
; CHECK: %adcc.inrows = and i1
; CHECK: outer:
; CHECK: %indvar = phi i64
; CHECK: br i1 %adcc.inrows, label %adcc.rows, label %adcc.gather.check
; CHECK: adcc.gather.check:
; CHECK-NEXT: br i1 %{{[0-9]+}}, label %adcc.gather.first, label %loop.unchanged
; CHECK: adcc.rows:
; CHECK-NEXT: %{{[0-9]+}} = icmp eq i64 %indvar, 0
; CHECK-NEXT: br i1 %{{[0-9]+}}, label %adcc.firstrow.first, label %adcc.rows.notfirst
; CHECK: adcc.rows.notfirst:
; CHECK-NEXT: %{{[0-9]+}} = icmp eq i64 %indvar, %{{[0-9]+}}
; CHECK-NEXT: br i1 %{{[0-9]+}}, label %adcc.lastrow.first, label %adcc.row.first
;
; The first row: its element, its own three contributions, then what the
; next row would push (dy one row down); its push into the row before
; stays; nothing zeroed.
; CHECK: adcc.firstrow:
; CHECK: %[[F0:[0-9]+]] = load double, ptr %[[FE:pm[0-9]+]]
; CHECK-NOT: store
; CHECK: %[[FN:[0-9]+]] = getelementptr i8, ptr %{{pw[0-9]+}}, i64 %[[DOWN:[0-9]+]]
; CHECK-NEXT: %[[FG:g[0-9]+]] = load double, ptr %[[FN]]
; CHECK-NEXT: %[[FA:a[0-9]+]] = fmul double %[[FG]], 2.5
; CHECK-NEXT: %[[FS:[0-9]+]] = fadd double %{{[0-9]+}}, %[[FA]]
; CHECK-NEXT: store double %[[FS]], ptr %[[FE]]
; CHECK: %[[PD:x4[0-9]+]] = load double, ptr %{{pd[0-9]+}}
; CHECK-NEXT: fadd double %[[PD]]
; CHECK-NEXT: store double
; CHECK-NOT: store
; CHECK: br i1 %{{[0-9]+}}, label %adcc.firstrow.last, label %adcc.firstrow
;
; A middle row: what the row before pushed first (dy one row up), its own
; three, what the row after would push last; the row before's dy zeroed.
; CHECK: adcc.row:
; CHECK: %[[M0:[0-9]+]] = load double, ptr %[[ME:pm[0-9]+]]
; CHECK: %[[MP:[0-9]+]] = getelementptr i8, ptr %[[PW:pw[0-9]+]], i64 %[[UP:[0-9]+]]
; CHECK-NEXT: %[[MG:g[0-9]+]] = load double, ptr %[[MP]]
; CHECK-NEXT: %[[MA:a[0-9]+]] = fmul double %[[MG]], 2.5
; CHECK-NEXT: %{{[0-9]+}} = fadd double %[[M0]], %[[MA]]
; CHECK: getelementptr i8, ptr %[[PW]], i64 %[[DOWN]]
; CHECK: store double %{{[0-9]+}}, ptr %[[ME]]
; CHECK-NEXT: %[[Z:[0-9]+]] = getelementptr i8, ptr %{{pw[0-9]+}}, i64 %[[UP]]
; CHECK-NEXT: store double 0.0{{.*}}, ptr %[[Z]]
; CHECK-NOT: store
; CHECK: br i1 %{{[0-9]+}}, label %adcc.row.last, label %adcc.row
;
; The last row: the row before's push first, its own push into the row
; after stays, both rows' dy zeroed.
; CHECK: adcc.lastrow:
; CHECK: %[[L0:[0-9]+]] = load double, ptr %[[LE:pm[0-9]+]]
; CHECK: getelementptr i8, ptr %{{pw[0-9]+}}, i64 %[[UP]]
; CHECK: store double %{{[0-9]+}}, ptr %[[LE]]
; CHECK: %[[PU:x5[0-9]+]] = load double, ptr %{{pu[0-9]+}}
; CHECK: store double 0.0
; CHECK-NEXT: store double 0.0
; CHECK-NEXT: store double %{{y5[0-9]+}}, ptr %{{pu[0-9]+}}
; CHECK: br i1 %{{[0-9]+}}, label %adcc.lastrow.last, label %adcc.lastrow
;
; NOROWS-LABEL: define void @rows5(
; NOROWS-NOT: adcc.rows
; NOROWS: adcc.gather:
; NOROWS-NOT: adcc.rows
define void @rows5(ptr noalias %dx, ptr noalias %dy, i64 %m, i64 %r) {
entry:
  %cols = add i64 %m, -2
  br label %outer

outer:
  %i = phi i64 [ %r, %entry ], [ %i.next, %outer.latch ]
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

; The pushes' addend scaled by a value each row loads from a record of its
; own (a tape row): another row cannot compute it, so the rows keep their
; pushes (the loop is gathered as before).
; CHECK-LABEL: define void @recorded(
; CHECK-NOT: adcc.rows
; CHECK: adcc.gather:
; CHECK-NOT: adcc.rows
; CHECK-LABEL: {{^}}exit:
define void @recorded(ptr noalias %dx, ptr noalias %dy, ptr noalias %rec,
                      i64 %m, i64 %r) {
entry:
  %cols = add i64 %m, -2
  br label %outer

outer:
  %i = phi i64 [ %r, %entry ], [ %i.next, %outer.latch ]
  %row = mul i64 %i, %m
  %slot = getelementptr ptr, ptr %rec, i64 %i
  %record = load ptr, ptr %slot, align 8
  br label %loop

loop:
  %j = phi i64 [ %cols, %outer ], [ %j.next, %loop ]
  %c = add i64 %row, %j
  %pw = getelementptr double, ptr %dy, i64 %c
  %g = load double, ptr %pw, align 8
  store double 0.0, ptr %pw, align 8
  %pv = getelementptr double, ptr %record, i64 %j
  %v = load double, ptr %pv, align 8
  %a = fmul double %g, %v
  %p0 = getelementptr double, ptr %dx, i64 %c
  %pp = getelementptr i8, ptr %p0, i64 8
  %pm = getelementptr i8, ptr %p0, i64 -8
  %x1 = load double, ptr %pp, align 8
  %y1 = fadd double %x1, %a
  store double %y1, ptr %pp, align 8
  %x3 = load double, ptr %pm, align 8
  %y3 = fadd double %x3, %a
  store double %y3, ptr %pm, align 8
  %pd = getelementptr double, ptr %p0, i64 %m
  %x4 = load double, ptr %pd, align 8
  %y4 = fadd double %x4, %a
  store double %y4, ptr %pd, align 8
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
