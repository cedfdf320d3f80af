; Loads, stores and GEPs through a duplicated pointer repeat on its shadow;
; a local array gets a zeroed shadow alloca.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define void @update(ptr %x, i64 %i) {
  %tmp = alloca [2 x double]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  store double %sq, ptr %tmp
  %w = load double, ptr %tmp
  store double %w, ptr %p
  ret void
}

define void @request(ptr %x, ptr %dx) {
  call double (ptr, ...) @__enzyme_fwddiff(ptr @update, ptr %x, ptr %dx, i64 1)
  ret void
}

; CHECK-LABEL: define internal void @fwddiffe_update(ptr %x, ptr %x.shadow, i64 %i)
; CHECK:      %tmp = alloca [2 x double]
; CHECK-NEXT: %tmp.shadow = alloca [2 x double]
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr {{.*}}%tmp.shadow, i8 0, i64 16, i1 false)
; CHECK-NEXT: %p = getelementptr inbounds double, ptr %x, i64 %i
; CHECK-NEXT: %p.shadow = getelementptr inbounds double, ptr %x.shadow, i64 %i
; CHECK-NEXT: %v = load double, ptr %p
; CHECK-NEXT: %v.tangent = load double, ptr %p.shadow
; CHECK:      store double %sq, ptr %tmp
; CHECK-NEXT: store double {{%.*}}, ptr %tmp.shadow
; CHECK:      %w.tangent = load double, ptr %tmp.shadow
; CHECK:      store double %w, ptr %p
; CHECK-NEXT: store double %w.tangent, ptr %p.shadow
