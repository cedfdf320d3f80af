; A stack slot handed to a callee that fills it stays without derivatives
; (`; holds no derivative`) when, with the activity the call's arguments
; have, everything the callee stores there is constant: a table read from
; constant memory, its callees' stores likewise. (The forward call of the
; ADBench hand objective along u, theta constant, zeroed a shadow of the
; posed transforms and computed tangents of zero from it for every point.)
; The slot receives a derivative when the callee stores an active value, a
; pointer or an integer there, or keeps its address.
; RUN: adcc-opt -passes=adcc-print-activity %s -o /dev/null | FileCheck %s

@table = internal constant [4 x double] [double 1.0, double 2.0, double 3.0, double 4.0]
@keep = internal global ptr null

declare double @llvm.sin.f64(double)

; Fills s[0..3] from the constant table and c (active or not, as the
; caller's argument is).
define internal void @fill(ptr %c, ptr %s) {
  %c0 = load double, ptr %c
  br label %loop
loop:
  %i = phi i64 [ 0, %0 ], [ %i1, %loop ]
  %t = getelementptr double, ptr @table, i64 %i
  %v = load double, ptr %t
  %w = call double @llvm.sin.f64(double %v)
  %m = fmul double %w, %c0
  %d = getelementptr double, ptr %s, i64 %i
  store double %m, ptr %d
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, 4
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Hands the slot on to @fill: followed one call deeper.
define internal void @fill_twice(ptr %c, ptr %s) {
  call void @fill(ptr %c, ptr %s)
  %s2 = getelementptr double, ptr %s, i64 4
  call void @fill(ptr %c, ptr %s2)
  ret void
}

define double @use(ptr %s, double %x) {
  %p = getelementptr double, ptr %s, i64 2
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}

; c points to a constant local: the slot is filled with constants.
define double @caller_constant(double %x) {
  %c = alloca double
  store double 0.5, ptr %c
  %slot = alloca [8 x double]
  call void @fill_twice(ptr %c, ptr %slot)
  %r = call double @use(ptr %slot, double %x)
  ret double %r
}
; CHECK-LABEL: activity of 'caller_constant'
; CHECK: %slot = alloca [8 x double], align 8  ; holds no derivative
; CHECK: const    call void @fill_twice

; c is active (a Dup argument): the slot holds its derivative.
define double @caller_active(ptr %c, double %x) {
  %slot = alloca [8 x double]
  call void @fill_twice(ptr %c, ptr %slot)
  %r = call double @use(ptr %slot, double %x)
  ret double %r
}
; CHECK-LABEL: activity of 'caller_active'
; CHECK: %slot = alloca [8 x double], align 8{{$}}

; c holds x: its slot holds a derivative, which @fill carries into the
; slot.
define double @caller_later(double %x) {
  %c = alloca double
  store double %x, ptr %c
  %slot = alloca [8 x double]
  call void @fill_twice(ptr %c, ptr %slot)
  %r = call double @use(ptr %slot, double %x)
  ret double %r
}
; CHECK-LABEL: activity of 'caller_later'
; CHECK: %slot = alloca [8 x double], align 8{{$}}

; Stores the slot's address: anything may be written there later.
define internal void @keeps(ptr %s) {
  store ptr %s, ptr @keep
  store double 1.0, ptr %s
  ret void
}

define double @caller_keeps(double %x) {
  %slot = alloca [8 x double]
  call void @keeps(ptr %slot)
  %r = call double @use(ptr %slot, double %x)
  ret double %r
}
; CHECK-LABEL: activity of 'caller_keeps'
; CHECK: %slot = alloca [8 x double], align 8{{$}}

; Stores an integer read from elsewhere (the bits of a double, perhaps).
define internal void @copies_bits(ptr %from, ptr %s) {
  %b = load i64, ptr %from
  store i64 %b, ptr %s
  ret void
}

define double @caller_bits(ptr %y, double %x) {
  %slot = alloca [8 x double]
  call void @copies_bits(ptr %y, ptr %slot)
  %r = call double @use(ptr %slot, double %x)
  ret double %r
}
; CHECK-LABEL: activity of 'caller_bits'
; CHECK: %slot = alloca [8 x double], align 8{{$}}

; A slot that holds its own address (Eigen's blocking space, whose pointer
; to its packing buffer the kernels read): the callee writes through the
; pointer it reads from the slot. Constants there keep the slot clean...
define internal void @fill_through(ptr %c, ptr %s) {
  %buf = load ptr, ptr %s
  %c0 = load double, ptr %c
  %w = call double @llvm.sin.f64(double %c0)
  %d = getelementptr double, ptr %buf, i64 2
  store double %w, ptr %d
  ret void
}

define double @caller_own_address(double %x) {
  %c = alloca double
  store double 0.5, ptr %c
  %slot = alloca { ptr, [4 x double] }
  %buf = getelementptr { ptr, [4 x double] }, ptr %slot, i64 0, i32 1
  store ptr %buf, ptr %slot
  call void @fill_through(ptr %c, ptr %slot)
  %p = getelementptr double, ptr %buf, i64 2
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}
; CHECK-LABEL: activity of 'caller_own_address'
; CHECK: %slot = alloca { ptr, [4 x double] }, align 8  ; holds no derivative

; ...and a value with a derivative written there (c active) does not.
define double @caller_own_address_active(ptr %c, double %x) {
  %slot = alloca { ptr, [4 x double] }
  %buf = getelementptr { ptr, [4 x double] }, ptr %slot, i64 0, i32 1
  store ptr %buf, ptr %slot
  call void @fill_through(ptr %c, ptr %slot)
  %p = getelementptr double, ptr %buf, i64 2
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}
; CHECK-LABEL: activity of 'caller_own_address_active'
; CHECK: %slot = alloca { ptr, [4 x double] }, align 8{{$}}
