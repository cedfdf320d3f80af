; Pointer arguments take the declared type of the stack variable every
; caller passes: through a local slot (what -O0 makes of a parameter),
; through a call that returns its argument (std::move at -O0) and through
; an intermediate function. An external function's callers are unknown; a
; pointer into the middle of a variable is not followed, but the address of
; a member whose declared type is a struct (`&p.inner`) takes that type.
; (A struct's integer fields are integers.)
; RUN: adcc-opt -passes=adcc-print-types %s -o /dev/null | FileCheck %s

%state = type { [2 x double], i32, double }

define internal void @copy(ptr %dst, ptr %src) {
  %slot = alloca ptr
  store ptr %src, ptr %slot
  %s = load ptr, ptr %slot
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %s, i64 32, i1 false)
  ret void
}

define internal ptr @move(ptr %p) {
  %slot = alloca ptr
  store ptr %p, ptr %slot
  %v = load ptr, ptr %slot
  ret ptr %v
}

define internal void @via(ptr %d, ptr %s) {
  %m = call ptr @move(ptr %s)
  call void @copy(ptr %d, ptr %m)
  ret void
}

define void @top() {
  %a = alloca %state
  %b = alloca %state
  call void @via(ptr %b, ptr %a)
  ret void
}

define void @exported(ptr %p) {
  %v = load i64, ptr %p
  ret void
}

define internal void @offset(ptr %p) {
  ret void
}

define void @calls_offset() {
  %a = alloca %state
  %f = getelementptr inbounds i8, ptr %a, i64 8
  call void @offset(ptr %f)
  ret void
}

%outer = type { i64, %state }

define internal void @member(ptr %p) {
  ret void
}

define void @calls_member() {
  %o = alloca %outer
  %inner = getelementptr inbounds %outer, ptr %o, i32 0, i32 1
  call void @member(ptr %inner)
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; CHECK-LABEL: types of 'copy'
; CHECK: %dst: pointer -> [0]:double [8]:double [16]:integer [24]:double
; CHECK: %src: pointer -> [0]:double [8]:double [16]:integer [24]:double
; CHECK-LABEL: types of 'move'
; CHECK: %p: pointer -> [0]:double [8]:double [16]:integer [24]:double
; CHECK-LABEL: types of 'via'
; CHECK: %d: pointer -> [0]:double [8]:double [16]:integer [24]:double
; CHECK-LABEL: types of 'exported'
; CHECK-NEXT: %p: pointer{{$}}
; CHECK-LABEL: types of 'offset'
; CHECK-NEXT: %p: pointer{{$}}
; CHECK-LABEL: types of 'calls_offset'
; CHECK-LABEL: types of 'member'
; CHECK-NEXT: %p: pointer -> [0]:double [8]:double [16]:integer [24]:double
