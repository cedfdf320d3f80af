; A copy helper that is not inlined and copies a double as an i64 through a
; `void *` field (the fuzzer's cells, CoMD's copyAtom) receives at -O3 the
; field's pointer alone (argument promotion: `move(c->vr, to, from)`).
; Without TBAA (-fno-strict-aliasing) nothing in it types the bytes; the
; caller does, through its other reads of the same field. Until 2026-12-06
; reverse mode refused the copy ("a memory copy whose contents cannot be
; typed"). A caller that writes integers through the field types nothing.
; RUN: adcc-opt -passes=adcc-print-types %s -o /dev/null | FileCheck %s

define internal void @move(ptr %p, i32 %to, i32 %from) {
  %t = sext i32 %to to i64
  %d = getelementptr inbounds double, ptr %p, i64 %t
  %f = sext i32 %from to i64
  %s = getelementptr inbounds double, ptr %p, i64 %f
  %bits = load i64, ptr %s, align 8
  store i64 %bits, ptr %d, align 8
  ret void
}

define void @fill(ptr %cl, double %x) {
  %vr = getelementptr inbounds i8, ptr %cl, i64 24
  %v = load ptr, ptr %vr, align 8
  %at = getelementptr inbounds double, ptr %v, i64 3
  store double %x, ptr %at, align 8
  %p = load ptr, ptr %vr, align 8
  call void @move(ptr %p, i32 0, i32 3)
  ret void
}

define internal void @move_mixed(ptr %p, i32 %to, i32 %from) {
  %t = sext i32 %to to i64
  %d = getelementptr inbounds double, ptr %p, i64 %t
  %f = sext i32 %from to i64
  %s = getelementptr inbounds double, ptr %p, i64 %f
  %bits = load i64, ptr %s, align 8
  store i64 %bits, ptr %d, align 8
  ret void
}

define void @fill_mixed(ptr %cl, double %x, i64 %n) {
  %vr = getelementptr inbounds i8, ptr %cl, i64 24
  %v = load ptr, ptr %vr, align 8
  store double %x, ptr %v, align 8
  %p = load ptr, ptr %vr, align 8
  call void @move_mixed(ptr %p, i32 0, i32 3)
  %w = load ptr, ptr %vr, align 8
  store i64 %n, ptr %w, align 8
  ret void
}

; CHECK-LABEL: types of 'move'
; CHECK-NEXT:  %p: pointer -> [*]:double [0]:double
; CHECK-LABEL: types of 'move_mixed'
; CHECK-NOT:   %p: pointer -> {{.*}}double
; CHECK-LABEL: types of 'fill_mixed'
