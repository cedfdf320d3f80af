; adcc-keep-min-max-choices (MinMaxChoices.cpp), at the start of the
; pipeline: in the functions a request reaches (the requested @pick and its
; callee @helper), floating-point phis and selects decided by a
; floating-point compare lose nnan and nsz, and so do those compares
; (InstCombine reads a choice's min/max pattern with the compare's flags
; too: a minimum of a minimum was folded into the inner one with -ffast-math,
; changing which operand a tie goes to), and a constant first operand
; of llvm.maxnum, ... is put second; other flags, other choices and the
; functions no request reaches (@other) keep theirs.
; RUN: adcc-opt -passes=adcc-keep-min-max-choices %s -o - | FileCheck %s

declare void @__enzyme_autodiff(ptr, ...)

define void @request(double %a, double %b) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @pick, double %a, double %b)
  ret void
}

; CHECK-LABEL: define double @pick(
; CHECK: fcmp reassoc ninf arcp contract afn ogt double %a, %b
; CHECK: phi reassoc ninf arcp contract afn double
; CHECK: phi fast double
define double @pick(double %a, double %b) {
entry:
  %c = fcmp fast ogt double %a, %b
  br i1 %c, label %then, label %else
then:
  br label %join
else:
  br label %join
join:
  %r = phi fast double [ %a, %then ], [ %b, %else ]
  %k = icmp eq i64 0, 0
  br i1 %k, label %then2, label %join2
then2:
  br label %join2
join2:
  %s = phi fast double [ %r, %join ], [ 0.0, %then2 ]
  %h = call double @helper(double %s, double %b)
  ret double %h
}

; CHECK-LABEL: define double @helper(
; CHECK: fcmp reassoc ninf arcp contract afn olt double %a, %b
; CHECK: select reassoc ninf arcp contract afn i1 %c, double %a, double %b
; CHECK: select reassoc ninf arcp contract afn i1 %n, double %a, double %b
; CHECK: select fast i1 %k, double %a, double %b
; CHECK: call fast double @llvm.maxnum.f64(double %y, double 0.0
; CHECK: call <2 x float> @llvm.minimum.v2f32(<2 x float> %v, <2 x float> splat
; CHECK: call double @llvm.minnum.f64(double %a, double %b)
define double @helper(double %a, double %b) {
  %c = fcmp fast olt double %a, %b
  %s = select fast i1 %c, double %a, double %b
  %n = xor i1 %c, true
  %t = select fast i1 %n, double %a, double %b
  %k = icmp eq i64 0, 0
  %u = select fast i1 %k, double %a, double %b
  %x = fadd fast double %s, %t
  %y = fadd fast double %x, %u
  %m = call fast double @llvm.maxnum.f64(double 0.0, double %y)
  %v = insertelement <2 x float> zeroinitializer, float 1.0, i64 0
  %w = call <2 x float> @llvm.minimum.v2f32(<2 x float> splat (float 2.0), <2 x float> %v)
  %o = call double @llvm.minnum.f64(double %a, double %b)
  ret double %o
}

; CHECK-LABEL: define double @other(
; CHECK: fcmp fast ogt double %a, %b
; CHECK: select fast i1 %c, double %a, double %b
; CHECK: call double @llvm.maxnum.f64(double 0.0{{.*}}, double %s)
define double @other(double %a, double %b) {
  %c = fcmp fast ogt double %a, %b
  %s = select fast i1 %c, double %a, double %b
  %m = call double @llvm.maxnum.f64(double 0.0, double %s)
  ret double %m
}
