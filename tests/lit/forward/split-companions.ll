; Split forward mode: the tangent sweep reads the values of libm calls (which
; may set errno) from the records, in its own order, which must be the
; recording sweep's. cos's partial, -sin t, does not come from the primal's
; sin call after atan: moved up there, that call would read atan's record.
; The partial is computed again instead; sin's own partial still uses cos.
; RUN: adcc-opt -passes=adcc %s -o - | FileCheck %s

declare ptr @__enzyme_augmentfwd(ptr, ...)
declare double @__enzyme_fwdsplit(ptr, ...)
declare double @sin(double)
declare double @cos(double)
declare double @atan(double)

define double @f(double %t) {
  %c = call double @cos(double %t)
  %a = call double @atan(double %c)
  %s = call double @sin(double %t)
  %r = fmul double %a, %s
  ret double %r
}

define double @request(double %t) {
  %tape = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @f, double %t)
  %r = call double (ptr, ...) @__enzyme_fwdsplit(ptr @f, double %t, double 1.0, ptr %tape)
  ret double %r
}

; CHECK-LABEL: define internal { double, double } @fwdsplit_f(
; CHECK:      %c = load double
; CHECK-NEXT: [[SIN:%.*]] = call double @llvm.sin.f64(double %t)
; CHECK-NEXT: fneg double [[SIN]]
; CHECK:      %a = load double
; CHECK:      %s = load double
; CHECK-NEXT: fmul double %c, %t.shadow
; CHECK:      ret { double, double }

; CHECK-LABEL: define internal double @fwdsplit_record_f(
; CHECK:      %c = call double @cos(double %t)
; CHECK:      store double %c
; CHECK:      %a = call double @atan(double %c)
; CHECK:      store double %a
; CHECK:      %s = call double @sin(double %t)
; CHECK:      store double %s
