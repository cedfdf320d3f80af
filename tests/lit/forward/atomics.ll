; Atomic read-modify-writes: an fadd into memory that has a shadow adds the
; tangent into the shadow; an integer counter there (std::shared_ptr's
; reference count in a block allocated inside the function) leaves the
; shadow alone, as an integer store does (it was reported as "this atomic
; read-modify-write on derivatives"). The old value an fadd returns has the
; shadow's old value as its tangent (it had none: the tangent of
; prev * x lacked dprev * x).
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define double @counted(ptr %block, double %x) {
  %count = getelementptr inbounds i8, ptr %block, i64 8
  %old = atomicrmw add ptr %count, i32 1 acq_rel
  %sum = getelementptr inbounds i8, ptr %block, i64 16
  %prev = atomicrmw fadd ptr %sum, double %x monotonic
  %r = fmul double %prev, %x
  ret double %r
}

define double @request(ptr %b, ptr %db, double %x) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @counted, ptr %b, ptr %db, double %x, double 1.0)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_counted(
; CHECK:      %old = atomicrmw add ptr %count, i32 1 acq_rel
; CHECK-NOT:  atomicrmw {{.*}}%count.shadow
; CHECK:      %prev = atomicrmw fadd ptr %sum, double %x monotonic
; CHECK-NEXT: [[DPREV:%.*]] = atomicrmw fadd ptr %sum.shadow, double %x.shadow monotonic
; CHECK-NEXT: %r = fmul double %prev, %x
; CHECK-NEXT: [[A:%.*]] = fmul double [[DPREV]], %x
; CHECK-NEXT: [[B:%.*]] = fmul double %prev, %x.shadow
; CHECK-NEXT: fadd reassoc nsz double [[A]], [[B]]
