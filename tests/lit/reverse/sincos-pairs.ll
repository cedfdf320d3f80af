; pairSinesAndCosines (optimize/SinCosPairs.cpp): the later call of sin or
; cos of an angle moves next to the earlier call of the other function of
; the same angle in its block; other angles, and pairs in other blocks,
; stay where they are.
; RUN: adcc-opt -passes=adcc-pair-sin-cos %s -o - | FileCheck %s

declare double @llvm.sin.f64(double)
declare double @llvm.cos.f64(double)
declare double @llvm.exp.f64(double)

; CHECK-LABEL: define double @apart(
; CHECK: %s = call fast double @llvm.sin.f64(double %a)
; CHECK-NEXT: %c = call fast double @llvm.cos.f64(double %a)
; CHECK-NEXT: %e = call fast double @llvm.exp.f64(double %s)
; CHECK-NEXT: %cb = call fast double @llvm.cos.f64(double %b)
; CHECK-NEXT: %m = fmul fast double %e, %cb
define double @apart(double %a, double %b) {
  %s = call fast double @llvm.sin.f64(double %a)
  %e = call fast double @llvm.exp.f64(double %s)
  %cb = call fast double @llvm.cos.f64(double %b)
  %m = fmul fast double %e, %cb
  %c = call fast double @llvm.cos.f64(double %a)
  %r = fadd fast double %m, %c
  ret double %r
}

; CHECK-LABEL: define double @blocks(
; CHECK: entry:
; CHECK-NEXT: %c = call fast double @llvm.cos.f64(double %a)
; CHECK-NEXT: br label %next
; CHECK: next:
; CHECK-NEXT: %s = call fast double @llvm.sin.f64(double %a)
define double @blocks(double %a) {
entry:
  %c = call fast double @llvm.cos.f64(double %a)
  br label %next
next:
  %s = call fast double @llvm.sin.f64(double %a)
  %r = fadd fast double %s, %c
  ret double %r
}
