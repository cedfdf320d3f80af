; __enzyme_error_estimate: the tangent of each operation is
; max(ulp(f), sum over the arguments with an estimate of
; |partial * (e * x / f)|), ulp(f) being |f - f'| for f' the value whose
; lowest bit differs. An argument without an estimate (a constant)
; contributes nothing; a call of a user function gets the estimates of
; its arguments (its own error derivative, not its forward derivative).
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare double @__enzyme_error_estimate(ptr, ...)
declare double @llvm.sqrt.f64(double)

define double @mul(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @scaled_root(double %x) {
  %r = call double @llvm.sqrt.f64(double %x)
  %s = fmul double %r, 3.0
  ret double %s
}

define double @calls(double %x) {
  %r = call double @scaled_root(double %x)
  ret double %r
}

define double @request(double %x, double %y) {
  %a = call double (ptr, ...) @__enzyme_error_estimate(ptr @mul, double %x, double 0.0, double %y, double 0.0)
  %b = call double (ptr, ...) @__enzyme_error_estimate(ptr @calls, double %x, double 1.0e-10)
  %s = fadd double %a, %b
  ret double %s
}

; CHECK-LABEL: define internal double @fwderror_mul(double %x, double %x.shadow, double %y, double %y.shadow)
; CHECK: %m = fmul double %x, %y
; CHECK-NEXT: [[EX:%.*]] = fmul double %x.shadow, %x
; CHECK-NEXT: [[SX:%.*]] = fdiv double [[EX]], %m
; CHECK-NEXT: [[EY:%.*]] = fmul double %y.shadow, %y
; CHECK-NEXT: [[SY:%.*]] = fdiv double [[EY]], %m
; CHECK-NEXT: [[TX:%.*]] = fmul double %y, [[SX]]
; CHECK-NEXT: [[AX:%.*]] = call double @llvm.fabs.f64(double [[TX]])
; CHECK-NEXT: [[TY:%.*]] = fmul double %x, [[SY]]
; CHECK-NEXT: [[AY:%.*]] = call double @llvm.fabs.f64(double [[TY]])
; CHECK-NEXT: [[SUM:%.*]] = fadd double [[AX]], [[AY]]
; CHECK-NEXT: [[BITS:%.*]] = bitcast double %m to i64
; CHECK-NEXT: [[FLIP:%.*]] = xor i64 [[BITS]], 1
; CHECK-NEXT: [[NEXT:%.*]] = bitcast i64 [[FLIP]] to double
; CHECK-NEXT: [[DIFF:%.*]] = fsub double %m, [[NEXT]]
; CHECK-NEXT: [[ULP:%.*]] = call double @llvm.fabs.f64(double [[DIFF]])
; CHECK-NEXT: [[E:%.*]] = call double @llvm.maxnum.f64(double [[ULP]], double [[SUM]])
; CHECK-NEXT: ret double [[E]]

; CHECK-LABEL: define internal double @fwderror_calls(double %x, double %x.shadow)
; CHECK-NEXT: call { double, double } @fwderror_scaled_root(double %x, double %x.shadow)

; The root's estimate, then the product's: the constant 3.0 has no
; estimate, one term.
; CHECK-LABEL: define internal { double, double } @fwderror_scaled_root(
; CHECK: [[R:%.*]] = call double @llvm.maxnum.f64(
; CHECK: %s = fmul double %r, 3.000000e+00
; CHECK-NEXT: [[ER:%.*]] = fmul double [[R]], %r
; CHECK-NEXT: [[SR:%.*]] = fdiv double [[ER]], %s
; CHECK-NEXT: [[T:%.*]] = fmul double 3.000000e+00, [[SR]]
; CHECK-NEXT: [[A:%.*]] = call double @llvm.fabs.f64(double [[T]])
; CHECK-NOT: fadd
; CHECK: call double @llvm.maxnum.f64(double {{%.*}}, double [[A]])
