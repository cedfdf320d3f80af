; Reverse mode: enzyme_dupnoneed on a pointer the function only writes
; through (writeonly, captures(none)): the augmented sweep drops the
; primal's stores and memsets into that memory, in the function and in a
; callee handed the pointer (its own DupNoNeed pair of sweeps); the reverse
; sweep still reads and clears the shadow. Without the attributes, or with
; enzyme_dup, the primal stores stay.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s
declare void @__enzyme_autodiff(ptr, ...)
declare void @llvm.memset.p0.i64(ptr writeonly, i8, i64, i1)
declare double @llvm.sin.f64(double)

@enzyme_dup = external global i32
@enzyme_dupnoneed = external global i32

define void @put(ptr writeonly captures(none) %dst, double %a) {
  %s = call double @llvm.sin.f64(double %a)
  store double %s, ptr %dst
  ret void
}

define void @outputs(ptr readonly captures(none) %x, ptr writeonly captures(none) %y) {
  call void @llvm.memset.p0.i64(ptr %y, i8 0, i64 16, i1 false)
  %a = load double, ptr %x
  %sq = fmul double %a, %a
  %y1 = getelementptr inbounds double, ptr %y, i64 1
  store double %sq, ptr %y1
  call void @put(ptr %y, double %a)
  ret void
}

; No attributes: the stores stay.
define void @plain(ptr %x, ptr %y) {
  %a = load double, ptr %x
  %sq = fmul double %a, %a
  store double %sq, ptr %y
  ret void
}

define void @request(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @outputs, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dupnoneed, ptr %y, ptr %dy)
  call void (ptr, ...) @__enzyme_autodiff(ptr @outputs, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dup, ptr %y, ptr %dy)
  call void (ptr, ...) @__enzyme_autodiff(ptr @plain, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dupnoneed, ptr %y, ptr %dy)
  ret void
}

; CHECK-LABEL: define internal void @augmented_outputs(ptr %x, ptr %x.shadow, ptr %y, ptr %y.shadow)
; CHECK-NOT:  memset.p0.i64(ptr %y,
; CHECK-NOT:  store double %sq
; CHECK:      call void @[[PUT:augmented_put[.0-9]*]](ptr %y, ptr %y.shadow, double %a)
; CHECK:      ret void
; CHECK-LABEL: define internal void @diffe_outputs()
; CHECK:      store double 0.000000e+00, ptr %[[Y1S:[0-9]+]]
; CHECK:      call void @llvm.memset.p0.i64(ptr %{{[0-9]+}}, i8 0, i64 16, i1 false)
; CHECK:      define internal void @[[PUT]](ptr %dst, ptr %dst.shadow, double %a)
; CHECK-NOT:  store double %s,
; CHECK:      ret void

; CHECK-LABEL: define internal void @augmented_outputs.{{[0-9]+}}(ptr %x, ptr %x.shadow, ptr %y, ptr %y.shadow)
; CHECK:      call void @llvm.memset.p0.i64(ptr %y, i8 0, i64 16, i1 false)
; CHECK:      store double %sq, ptr %y1
; CHECK:      call void @[[PUTDUP:augmented_put[.0-9]*]](ptr %y, ptr %y.shadow, double %a)
; CHECK:      define internal void @[[PUTDUP]](ptr %dst, ptr %dst.shadow, double %a)
; CHECK:      store double %s, ptr %dst

; CHECK-LABEL: define internal void @augmented_plain(
; CHECK:      store double %sq, ptr %y,
