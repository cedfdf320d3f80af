; An integer narrower than a pointer that never becomes an address is a
; number: arithmetic on it gets no tangent, and nothing is stored into the
; shadow for it. Without TBAA (-fno-strict-aliasing) the count `cnt[b]++`
; below is a phi of two loads of the count, the one after the counter of
; local cells with a tangent; until 2026-12-06 forward mode made the
; tangent "loaded shadow + 1" and stored it into the shadow's count table,
; which may be the primal's own (the fuzzer's cells, whose shadow shares
; the counts: the primal outputs of __enzyme_fwddiff were wrong at -O2).
; A count copied (`cnt[3] = cnt[b]`, the same phi) keeps its tangent, 0 on
; the path without one; it is stored into the shadow except where the
; shadow is the primal's own memory, which gets the primal's value again
; (until 2026-12-06 the 0 overwrote the primal's count).
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare void @__enzyme_fwddiff(ptr, ...)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare double @sin(double)

; struct cells { int *cnt; int nloc; double *v; void *vr; }
define internal void @put(ptr %x, i32 %b, ptr %cl) {
  %cnt = load ptr, ptr %cl, align 8
  call void @llvm.memset.p0.i64(ptr %cnt, i8 0, i64 16, i1 false)
  %nloc = getelementptr inbounds i8, ptr %cl, i64 8
  store i32 0, ptr %nloc, align 8
  %vr = getelementptr inbounds i8, ptr %cl, i64 24
  %cnt2 = load ptr, ptr %cl, align 8
  %i = sext i32 %b to i64
  %at = getelementptr inbounds i32, ptr %cnt2, i64 %i
  %c0 = load i32, ptr %at, align 4
  %local = icmp slt i32 %b, 2
  br i1 %local, label %count, label %store

count:
  store i32 1, ptr %nloc, align 8
  %c1 = load i32, ptr %at, align 4
  br label %store

store:
  %c = phi i32 [ %c1, %count ], [ %c0, %0 ]
  %inc = add nsw i32 %c, 1
  store i32 %inc, ptr %at, align 4
  %xv = load double, ptr %x, align 8
  %s = call double @sin(double %xv)
  %v = load ptr, ptr %vr, align 8
  %o = sext i32 %c0 to i64
  %slot = getelementptr inbounds double, ptr %v, i64 %o
  store double %s, ptr %slot, align 8
  ret void
}

define internal void @copy(ptr %x, i32 %b, ptr %cl) {
  %cnt = load ptr, ptr %cl, align 8
  call void @llvm.memset.p0.i64(ptr %cnt, i8 0, i64 16, i1 false)
  %nloc = getelementptr inbounds i8, ptr %cl, i64 8
  store i32 0, ptr %nloc, align 8
  %vr = getelementptr inbounds i8, ptr %cl, i64 24
  %cnt2 = load ptr, ptr %cl, align 8
  %i = sext i32 %b to i64
  %at = getelementptr inbounds i32, ptr %cnt2, i64 %i
  %c0 = load i32, ptr %at, align 4
  %local = icmp slt i32 %b, 2
  br i1 %local, label %count, label %store

count:
  store i32 1, ptr %nloc, align 8
  %c1 = load i32, ptr %at, align 4
  br label %store

store:
  %c = phi i32 [ %c1, %count ], [ %c0, %0 ]
  %at3 = getelementptr inbounds i32, ptr %cnt2, i64 3
  store i32 %c, ptr %at3, align 4
  %xv = load double, ptr %x, align 8
  %s = call double @sin(double %xv)
  %v = load ptr, ptr %vr, align 8
  %o = sext i32 %c0 to i64
  %slot = getelementptr inbounds double, ptr %v, i64 %o
  store double %s, ptr %slot, align 8
  ret void
}

define void @request(ptr %x, ptr %dx, i32 %b, ptr %cl, ptr %dcl) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @put, ptr %x, ptr %dx, i32 %b,
                                         ptr %cl, ptr %dcl)
  call void (ptr, ...) @__enzyme_fwddiff(ptr @copy, ptr %x, ptr %dx, i32 %b,
                                         ptr %cl, ptr %dcl)
  ret void
}

; CHECK-LABEL: define internal void @fwddiffe_put(
; CHECK:      %inc = add nsw i32 %c, 1
; CHECK-NOT:  add i32 %c.tangent
; CHECK-NEXT: store i32 %inc, ptr %at
; CHECK-NOT:  store i32
; CHECK:      store double %s, ptr %slot
; CHECK:      store double {{.*}}, ptr %slot.shadow
; CHECK:      ret void

; CHECK-LABEL: define internal void @fwddiffe_copy(
; CHECK:      %c.tangent = phi i32 [ %c1.tangent, %count ], [ 0,
; CHECK:      store i32 %c, ptr %at3
; CHECK-NEXT: %[[SAME:[0-9]+]] = icmp eq ptr %at3.shadow.or.null, %at3
; CHECK-NEXT: %[[VALUE:[0-9]+]] = select i1 %[[SAME]], i32 %c, i32 %c.tangent
; CHECK:      store i32 %[[VALUE]], ptr %at3.shadow.or.null.or.sink
