; splitAggregatePhis (adcore/lib/optimize/AggregatePhis.cpp): the tangent of a
; phi at width N is a phi of [N x double]; it becomes one phi per lane, fed by
; extractvalue at the end of each incoming block, and the aggregate is built
; again after the phis.
; RUN: adcc-opt -passes=adcc-split-aggregate-phis %s -o - | FileCheck %s

; A width-4 sum carried around a loop (a batched dot product).
; CHECK-LABEL: define [4 x double] @sum4(
; CHECK: loop:
; CHECK-NEXT: %acc.elt = phi double [ 0.000000e+00, %entry ], [ %next.elt, %loop ]
; CHECK-NEXT: %acc.elt1 = phi double [ 0.000000e+00, %entry ], [ %next.elt2, %loop ]
; CHECK-NEXT: %acc.elt3 = phi double [ 1.000000e+00, %entry ], [ %next.elt4, %loop ]
; CHECK-NEXT: %acc.elt5 = phi double [ 0.000000e+00, %entry ], [ %next.elt6, %loop ]
; CHECK-NEXT: %i = phi i64
; CHECK-NEXT: [[W0:%.*]] = insertvalue [4 x double] poison, double %acc.elt, 0
; CHECK-NEXT: [[W1:%.*]] = insertvalue [4 x double] [[W0]], double %acc.elt1, 1
; CHECK-NEXT: [[W2:%.*]] = insertvalue [4 x double] [[W1]], double %acc.elt3, 2
; CHECK-NEXT: %acc = insertvalue [4 x double] [[W2]], double %acc.elt5, 3
; CHECK: %next = insertvalue [4 x double] %acc, double %s, 0
; CHECK: %done = icmp
; CHECK-NEXT: %next.elt = extractvalue [4 x double] %next, 0
; CHECK-NEXT: %next.elt2 = extractvalue [4 x double] %next, 1
; CHECK-NEXT: %next.elt4 = extractvalue [4 x double] %next, 2
; CHECK-NEXT: %next.elt6 = extractvalue [4 x double] %next, 3
; CHECK-NEXT: br i1 %done, label %exit, label %loop
; CHECK: exit:
; CHECK-NOT: phi [4 x double]
; CHECK: ret [4 x double] %acc
define [4 x double] @sum4(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %acc = phi [4 x double] [ [double 0.0, double 0.0, double 1.0, double 0.0], %entry ], [ %next, %loop ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %a0 = extractvalue [4 x double] %acc, 0
  %q = getelementptr double, ptr %p, i64 %i
  %x = load double, ptr %q
  %s = fadd double %a0, %x
  %next = insertvalue [4 x double] %acc, double %s, 0
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret [4 x double] %acc
}

; Nested aggregates (the width-2 tangent of a struct) are split to their
; scalars; a block reaching the phi on two edges (a switch) is read once;
; an undef incoming gives undef elements.
; CHECK-LABEL: define { [2 x double], [2 x ptr] } @nested(
; CHECK: join:
; CHECK-NEXT: %t.elt = phi double [ %v.elt, %a ], [ %v.elt, %a ], [ undef, %entry ]
; CHECK-NEXT: %t.elt1 = phi double [ %v.elt2, %a ], [ %v.elt2, %a ], [ undef, %entry ]
; CHECK-NEXT: %t.elt3 = phi ptr [ %v.elt4, %a ], [ %v.elt4, %a ], [ undef, %entry ]
; CHECK-NEXT: %t.elt5 = phi ptr [ %v.elt6, %a ], [ %v.elt6, %a ], [ undef, %entry ]
; CHECK-NOT: phi
; CHECK: insertvalue { [2 x double], [2 x ptr] } poison, double %t.elt, 0, 0
; CHECK: insertvalue {{.*}}, double %t.elt1, 0, 1
; CHECK: insertvalue {{.*}}, ptr %t.elt3, 1, 0
; CHECK: %t = insertvalue {{.*}}, ptr %t.elt5, 1, 1
define { [2 x double], [2 x ptr] } @nested({ [2 x double], [2 x ptr] } %v, i32 %k, i1 %c) {
entry:
  br i1 %c, label %a, label %join
a:
  switch i32 %k, label %join [ i32 1, label %join ]
join:
  %t = phi { [2 x double], [2 x ptr] } [ %v, %a ], [ %v, %a ], [ undef, %entry ]
  ret { [2 x double], [2 x ptr] } %t
}

; An invoke's aggregate result on its normal edge has nowhere to be read
; before the edge: that phi stays whole. A landing pad block gets its
; rebuilt aggregate after the landingpad.
; CHECK-LABEL: define [2 x double] @invoked(
; CHECK: ok:
; CHECK-NEXT: %r = phi [2 x double] [ %v, %entry ]
; CHECK: lpad:
; CHECK-NEXT: %l.elt = phi double
; CHECK-NEXT: %l.elt1 = phi double
; CHECK-NEXT: landingpad
; CHECK-NEXT: cleanup
; CHECK-NEXT: insertvalue [2 x double] poison, double %l.elt, 0
declare [2 x double] @get()
declare i32 @__gxx_personality_v0(...)
define [2 x double] @invoked([2 x double] %w) personality ptr @__gxx_personality_v0 {
entry:
  %v = invoke [2 x double] @get() to label %ok unwind label %lpad
ok:
  %r = phi [2 x double] [ %v, %entry ]
  ret [2 x double] %r
lpad:
  %l = phi [2 x double] [ %w, %entry ]
  %lp = landingpad { ptr, i32 } cleanup
  ret [2 x double] %l
}
