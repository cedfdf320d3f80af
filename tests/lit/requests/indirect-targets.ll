; Which address-taken functions the derivatives may call through a pointer.
; @grad_square's address only reaches @check's parameter, which @check only
; calls (also through its -O0 slot): @check is not differentiated, so no
; derivative's call through a pointer reaches @grad_square. @square's
; address is stored in a table: a candidate. @helper is differentiated
; (@mix calls it), so what it confines may be called: @cube.
; RUN: adcc-opt -passes=adcc-print-indirect-targets %s -o /dev/null | FileCheck %s
; CHECK-DAG: square: may be called through pointers
; CHECK-DAG: grad_square: not called through pointers
; CHECK-DAG: cube: may be called through pointers
; CHECK-DAG: grad_cube: not called through pointers

@table = global [1 x ptr] [ptr @square]

declare double @__enzyme_autodiff(ptr, ...)

define double @square(double %x) {
  %r = fmul double %x, %x
  ret double %r
}

define double @cube(double %x) {
  %s = fmul double %x, %x
  %r = fmul double %s, %x
  ret double %r
}

define double @grad_square(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @mix, double %x)
  ret double %d
}

define double @grad_cube(double %x) {
  ret double %x
}

define double @helper(ptr %f, double %x) {
  %r = call double %f(double %x)
  ret double %r
}

define double @mix(double %x) {
  %f = load ptr, ptr @table
  %a = call double %f(double %x)
  %b = call double @helper(ptr @cube, double %x)
  %r = fadd double %a, %b
  ret double %r
}

define void @check(ptr %df, double %x) {
  %slot = alloca ptr
  store ptr %df, ptr %slot
  %g = load ptr, ptr %slot
  %v = call double %g(double %x)
  ret void
}

define void @main() {
  call void @check(ptr @grad_square, double 1.0)
  call void @check(ptr @grad_cube, double 1.0)
  ret void
}
