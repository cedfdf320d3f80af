; Stack slots handed to calls that only read them stay without derivatives
; (`; holds no derivative`): the callee may keep the slot's address in
; local variables that only ever hold addresses into it (its own parameter's
; at -O0, and those of the functions inlined into it), and copy bytes out of
; it (a std::complex taken by value). A copy into the slot from elsewhere,
; or its address kept where another pointer is kept too, may bring one.
; (At -O0, the closure of adcc::gradient called inside a function that
; adcc::hvp differentiates by forward mode looked active, and its pointer
; to the callable got a null shadow: a crash.)
; RUN: adcc-opt -passes=adcc-print-activity %s -o /dev/null | FileCheck %s

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @reads(ptr %c) {
  %c.addr = alloca ptr
  store ptr %c, ptr %c.addr
  %c1 = load ptr, ptr %c.addr
  %inlined.addr = alloca ptr
  store ptr %c1, ptr %inlined.addr
  %c2 = load ptr, ptr %inlined.addr
  %tmp = alloca { double, double }
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %c2, i64 16, i1 false)
  %v = load double, ptr %tmp
  ret double %v
}

define double @caller(double %x) {
  %slot = alloca { double, double }
  store double 1.0, ptr %slot
  %r = call double @reads(ptr %slot)
  %m = fmul double %r, %x
  ret double %m
}
; CHECK-LABEL: activity of 'caller'
; CHECK: %slot = alloca { double, double }, align 8  ; holds no derivative

define double @mixed_holder(ptr %c, ptr %other) {
  %h = alloca ptr
  store ptr %c, ptr %h
  store ptr %other, ptr %h
  %p = load ptr, ptr %h
  store double 0.0, ptr %p
  ret double 0.0
}

define double @caller_mixed(double %x, ptr %y) {
  %slot = alloca { double, double }
  store double 1.0, ptr %slot
  %r = call double @mixed_holder(ptr %slot, ptr %y)
  ret double %r
}
; CHECK-LABEL: activity of 'caller_mixed'
; CHECK: %slot = alloca { double, double }, align 8{{$}}

define void @copies_in(ptr %c, ptr %from) {
  call void @llvm.memcpy.p0.p0.i64(ptr %c, ptr %from, i64 16, i1 false)
  ret void
}

define double @caller_copy(double %x, ptr %y) {
  %slot = alloca { double, double }
  call void @copies_in(ptr %slot, ptr %y)
  %v = load double, ptr %slot
  ret double %v
}
; CHECK-LABEL: activity of 'caller_copy'
; CHECK: %slot = alloca { double, double }, align 8{{$}}
; CHECK: active   %v = load double, ptr %slot
