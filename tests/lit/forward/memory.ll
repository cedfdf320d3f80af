; Loads, stores and GEPs through a duplicated pointer repeat on its shadow;
; a local array gets a shadow alloca, zeroed unless every write to the array
; writes its shadow too (stores of floats, pointers, memory intrinsics).
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

; An integer store leaves the shadow as it was: zeroed first.
define void @punned(ptr %x) {
  %tmp = alloca [2 x double]
  store i64 0, ptr %tmp
  %v = load double, ptr %x
  %hi = getelementptr inbounds double, ptr %tmp, i64 1
  store double %v, ptr %hi
  %w = load double, ptr %tmp
  store double %w, ptr %x
  ret void
}

define void @request(ptr %x, ptr %dx) {
  call double (ptr, ...) @__enzyme_fwddiff(ptr @update, ptr %x, ptr %dx, i64 1)
  call double (ptr, ...) @__enzyme_fwddiff(ptr @punned, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal void @fwddiffe_update(ptr %x, ptr %x.shadow, i64 %i)
; CHECK:      %tmp = alloca [2 x double]
; CHECK-NEXT: %tmp.shadow = alloca [2 x double]
; CHECK-NEXT: %p = getelementptr inbounds double, ptr %x, i64 %i
; CHECK-NEXT: %p.shadow = getelementptr inbounds double, ptr %x.shadow, i64 %i
; CHECK-NEXT: %v = load double, ptr %p
; CHECK-NEXT: %v.tangent = load double, ptr %p.shadow
; CHECK:      store double %sq, ptr %tmp
; CHECK-NEXT: store double {{%.*}}, ptr %tmp.shadow
; CHECK:      %w.tangent = load double, ptr %tmp.shadow
; CHECK:      store double %w, ptr %p
; CHECK-NEXT: store double %w.tangent, ptr %p.shadow

; CHECK-LABEL: define internal void @fwddiffe_punned(ptr %x, ptr %x.shadow)
; CHECK:      %tmp.shadow = alloca [2 x double]
; CHECK-NEXT: call void @llvm.memset.p0.i64(ptr {{.*}}%tmp.shadow, i8 0, i64 16, i1 false)
; CHECK:      %w.tangent = load double, ptr %tmp.shadow
