; The distance between two pointers with shadows (`end - begin`, the size
; of a std::vector) is a number: it gets no tangent, and indexing with it
; moves the shadow like the pointer.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare double @__enzyme_fwddiff(ptr, ...)

define void @last(ptr %x) {
  %end = getelementptr inbounds double, ptr %x, i64 3
  %b = ptrtoint ptr %x to i64
  %e = ptrtoint ptr %end to i64
  %bytes = sub i64 %e, %b
  %n = lshr exact i64 %bytes, 3
  %p = getelementptr inbounds double, ptr %x, i64 %n
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  store double %sq, ptr %x
  ret void
}

define void @request(ptr %x, ptr %dx) {
  call double (ptr, ...) @__enzyme_fwddiff(ptr @last, ptr %x, ptr %dx)
  ret void
}

; CHECK-LABEL: define internal void @fwddiffe_last(ptr %x, ptr %x.shadow)
; CHECK:      %bytes = sub i64 %e, %b
; CHECK-NOT:  %bytes.tangent
; CHECK:      %p.shadow = getelementptr inbounds double, ptr %x.shadow, i64 %n
; CHECK:      %v.tangent = load double, ptr %p.shadow
