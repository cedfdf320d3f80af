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
