; shareTapeHandles (optimize/TapeHandles.cpp): the calls of
; adcc_tape_thread of a function whose other calls cannot change the
; thread's tape become one, where it dominates them all (out of a loop);
; where a call may change it (an unknown function), each call reuses the
; one that ran before it on every path since the last such call; a level
; computed at run time is left alone.
; RUN: adcc-opt -passes=adcc-share-tape-handles %s -o - | FileCheck %s

declare ptr @adcc_tape_thread() memory(inaccessiblemem: read) nounwind willreturn
declare ptr @adcc_tape_thread_level(i32) memory(inaccessiblemem: read) nounwind willreturn
declare ptr @adcc_tape_push(ptr, i64, i64)
declare ptr @adcc_tape_pop(ptr, i64, i64)
declare double @llvm.sin.f64(double)
declare void @unknown()
declare double @pure(double) memory(none)

; CHECK-LABEL: define void @loop(
; CHECK: entry:
; CHECK-NEXT: %t0 = call ptr @adcc_tape_thread()
; CHECK-NEXT: %l0 = call ptr @adcc_tape_thread_level(i32 1)
; CHECK-NOT: call ptr @adcc_tape_thread
; CHECK: call ptr @adcc_tape_push(ptr %t0, i64 8, i64 8)
; CHECK: call ptr @adcc_tape_push(ptr %l0, i64 8, i64 8)
; CHECK: call ptr @adcc_tape_pop(ptr %t0, i64 8, i64 8)
; CHECK-NOT: call ptr @adcc_tape_thread
; CHECK: ret void
define void @loop(i64 %n, double %x) {
entry:
  %t0 = call ptr @adcc_tape_thread()
  %l0 = call ptr @adcc_tape_thread_level(i32 1)
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %t1 = call ptr @adcc_tape_thread()
  %r1 = call ptr @adcc_tape_push(ptr %t1, i64 8, i64 8)
  %s = call double @llvm.sin.f64(double %x)
  %p = call double @pure(double %s)
  %l1 = call ptr @adcc_tape_thread_level(i32 1)
  %r2 = call ptr @adcc_tape_push(ptr %l1, i64 8, i64 8)
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %body, label %back
back:
  %t2 = call ptr @adcc_tape_thread()
  %r3 = call ptr @adcc_tape_pop(ptr %t2, i64 8, i64 8)
  ret void
}

; Two branches: the new call goes to their common dominator.
; CHECK-LABEL: define void @branches(
; CHECK: entry:
; CHECK-NEXT: %tape = call ptr @adcc_tape_thread()
; CHECK-NEXT: br i1 %c
; CHECK: a:
; CHECK-NEXT: call ptr @adcc_tape_push(ptr %tape,
; CHECK: b:
; CHECK-NEXT: call ptr @adcc_tape_push(ptr %tape,
define void @branches(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %ta = call ptr @adcc_tape_thread()
  %ra = call ptr @adcc_tape_push(ptr %ta, i64 8, i64 8)
  br label %end
b:
  %tb = call ptr @adcc_tape_thread()
  %rb = call ptr @adcc_tape_push(ptr %tb, i64 16, i64 8)
  br label %end
end:
  ret void
}

; An unknown call between: the calls after it stay apart from those
; before; after a join of paths that both ran one call, that call.
; CHECK-LABEL: define void @unknown_between(
; CHECK: %t0 = call ptr @adcc_tape_thread()
; CHECK-NEXT: call ptr @adcc_tape_push(ptr %t0,
; CHECK-NEXT: call ptr @adcc_tape_push(ptr %t0,
; CHECK-NEXT: call void @unknown()
; CHECK-NEXT: %t2 = call ptr @adcc_tape_thread()
; CHECK-NEXT: call ptr @adcc_tape_pop(ptr %t2,
; CHECK: next:
; CHECK-NEXT: call ptr @adcc_tape_pop(ptr %t2,
; CHECK: loop:
; CHECK-NEXT: %t4 = call ptr @adcc_tape_thread()
; CHECK-NEXT: call ptr @adcc_tape_pop(ptr %t4,
define void @unknown_between(i1 %c) {
entry:
  %t0 = call ptr @adcc_tape_thread()
  %r0 = call ptr @adcc_tape_push(ptr %t0, i64 8, i64 8)
  %t1 = call ptr @adcc_tape_thread()
  %r1 = call ptr @adcc_tape_push(ptr %t1, i64 8, i64 8)
  call void @unknown()
  %t2 = call ptr @adcc_tape_thread()
  %r2 = call ptr @adcc_tape_pop(ptr %t2, i64 8, i64 8)
  br label %next
next:
  %t3 = call ptr @adcc_tape_thread()
  %r3 = call ptr @adcc_tape_pop(ptr %t3, i64 8, i64 8)
  br label %loop
loop:
  %t4 = call ptr @adcc_tape_thread()
  %r4 = call ptr @adcc_tape_pop(ptr %t4, i64 8, i64 8)
  call void @unknown()
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; A level computed at run time: left alone.
; CHECK-LABEL: define void @runtime_level(
; CHECK: %a = call ptr @adcc_tape_thread_level(i32 %k)
; CHECK: %b = call ptr @adcc_tape_thread_level(i32 %k)
define void @runtime_level(i32 %k) {
  %a = call ptr @adcc_tape_thread_level(i32 %k)
  %ra = call ptr @adcc_tape_push(ptr %a, i64 8, i64 8)
  %b = call ptr @adcc_tape_thread_level(i32 %k)
  %rb = call ptr @adcc_tape_push(ptr %b, i64 8, i64 8)
  ret void
}
