; The activity analysis: what depends on a duplicated argument, directly or
; through memory, is active; integer bookkeeping is constant.
; RUN: adcc-opt -passes=adcc-print-activity %s -o /dev/null | FileCheck %s

define double @f(ptr %x, i64 %n, double %c) {
entry:
  %local = alloca double
  store double %c, ptr %local
  %p = getelementptr double, ptr %x, i64 %n
  %v = load double, ptr %p
  %w = load double, ptr %local
  %idx = add i64 %n, 1
  %cmp = fcmp olt double %v, %w
  %conv = fptosi double %v to i64
  %r = fmul double %v, %w
  ret double %r
}

; CHECK-LABEL: activity of 'f'
; CHECK-NEXT: active ptr %x
; CHECK-NEXT: const  i64 %n
; CHECK-NEXT: active double %c
; CHECK-NEXT: active   %local = alloca double
; CHECK-NEXT: active   %p = getelementptr double, ptr %x, i64 %n
; CHECK-NEXT: active   %v = load double, ptr %p
; CHECK-NEXT: active   %w = load double, ptr %local
; CHECK-NEXT: const    %idx = add i64 %n, 1
; CHECK-NEXT: const    %cmp = fcmp olt double %v, %w
; CHECK-NEXT: const    %conv = fptosi double %v to i64
; CHECK-NEXT: active   %r = fmul double %v, %w

; A std::string-like object: its own address stored into it (the pointer to
; its local buffer) and calls of the C++ library's string members leave it
; without derivatives, so the data pointer read back from it is constant
; (once, its shadow was freed by the inline destructor: a crash).
%string = type { ptr, i64, [16 x i8] }
declare void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_appendEPKcm(ptr, ptr, i64)
declare void @_ZdlPvm(ptr, i64)

define double @text(double %x, ptr %s) {
  %str = alloca %string
  %buf = getelementptr inbounds i8, ptr %str, i64 16
  store ptr %buf, ptr %str
  call void @_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_appendEPKcm(ptr %str, ptr %s, i64 3)
  %data = load ptr, ptr %str
  call void @_ZdlPvm(ptr %data, i64 16)
  %r = fmul double %x, %x
  ret double %r
}

; CHECK-LABEL: activity of 'text'
; CHECK:      active double %x
; CHECK:      const    %data = load ptr, ptr %str
; CHECK:      active   %r = fmul double %x, %x

; A function that returns a block it allocates (std::allocator::allocate
; at -O0) makes memory that may receive derivatives, whatever its
; arguments: its result is active, like malloc's.
declare ptr @_Znwm(i64)

define ptr @allocate(i64 %n) {
  %bytes = mul i64 %n, 8
  %p = call ptr @_Znwm(i64 %bytes)
  ret ptr %p
}

define double @boxed(double %x) {
  %box = call ptr @allocate(i64 1)
  store double %x, ptr %box
  %v = load double, ptr %box
  ret double %v
}

; CHECK-LABEL: activity of 'boxed'
; CHECK:      active   %box = call ptr @allocate(i64 1)
; CHECK:      active   %v = load double, ptr %box

; The same at -O0 through a local variable that holds null or the block
; (Eigen's conditional_aligned_new_auto), through a wrapper that returns
; the wrapper's result (conditional_aligned_malloc); a function that can
; return another pointer is not an allocation.
define ptr @new_or_null(i64 %n) {
  %r = alloca ptr
  %zero = icmp eq i64 %n, 0
  br i1 %zero, label %none, label %some
none:
  store ptr null, ptr %r
  br label %done
some:
  %p = call ptr @allocate(i64 %n)
  store ptr %p, ptr %r
  br label %done
done:
  %v = load ptr, ptr %r
  ret ptr %v
}

define ptr @wrapped(i64 %n) {
  %p = call ptr @new_or_null(i64 %n)
  ret ptr %p
}

; (A pool defined in another file: no shadow global here.)
@pool = external global [4 x double]

define ptr @pool_or_new(i64 %n) {
  %zero = icmp eq i64 %n, 0
  %p = call ptr @allocate(i64 %n)
  %q = select i1 %zero, ptr @pool, ptr %p
  ret ptr %q
}

define double @boxed_o0(double %x) {
  %box = call ptr @wrapped(i64 1)
  store double %x, ptr %box
  %v = load double, ptr %box
  %other = call ptr @pool_or_new(i64 1)
  ret double %v
}

; CHECK-LABEL: activity of 'boxed_o0'
; CHECK:      active   %box = call ptr @wrapped(i64 1)
; CHECK:      active   %v = load double, ptr %box
; CHECK:      const    %other = call ptr @pool_or_new(i64 1)
