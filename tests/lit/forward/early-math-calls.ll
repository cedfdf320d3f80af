; moveMathCallsUp (adcore/lib/optimize/EarlyMathCalls.cpp): in a function
; holding derivative code (shadow accesses), a sin or cos call moves up to
; right after its angle's computation, and that computation (with its
; loads) to the top of its block or of the block's single predecessor, so
; that the other loads come after the call. Not when a store comes before
; a load the angle needs or the angle needs an instruction that might trap,
; not out of a loop, not in functions without shadow accesses.
; RUN: adcc-opt -passes=adcc-early-math-calls %s -o - | FileCheck %s

declare double @llvm.sin.f64(double)
declare double @llvm.cos.f64(double)
declare double @llvm.sqrt.f64(double)

; The rotation's angle under `if (t2 != 0)`: the loads of the angle's
; input, its square root, sin and cos go first in the entry block; the
; point and the shadows are loaded after them.
; CHECK-LABEL: define void @rotation(
; CHECK: entry:
; CHECK-NEXT: %r = load double, ptr %rot
; CHECK-NEXT: %t2 = fmul fast double %r, %r
; CHECK-NEXT: %theta = call fast double @llvm.sqrt.f64(double %t2)
; CHECK-NEXT: %s = call fast double @llvm.sin.f64(double %theta)
; CHECK-NEXT: %c = call fast double @llvm.cos.f64(double %theta)
; CHECK-NEXT: %x = load double, ptr %X
; CHECK-NEXT: %dx = load double, ptr %dX
; CHECK: nonzero:
; CHECK-NEXT: %sx = fmul fast double %dx, %x
define void @rotation(ptr %rot, ptr %X, ptr %dX, ptr %out, ptr %dout) {
entry:
  %x = load double, ptr %X, align 8
  %dx = load double, ptr %dX, align 8, !alias.scope !2, !noalias !4
  %r = load double, ptr %rot, align 8
  %t2 = fmul fast double %r, %r
  %nz = fcmp fast une double %t2, 0.000000e+00
  br i1 %nz, label %nonzero, label %zero

nonzero:
  %theta = call fast double @llvm.sqrt.f64(double %t2)
  %sx = fmul fast double %dx, %x
  %s = call fast double @llvm.sin.f64(double %theta)
  %c = call fast double @llvm.cos.f64(double %theta)
  %p = fmul fast double %s, %x
  %dp = fmul fast double %c, %sx
  br label %join

zero:
  br label %join

join:
  %o = phi double [ %p, %nonzero ], [ %x, %zero ]
  %do = phi double [ %dp, %nonzero ], [ %dx, %zero ]
  store double %o, ptr %out, align 8
  store double %do, ptr %dout, align 8, !alias.scope !2, !noalias !4
  ret void
}

; A store before the angle's load: nothing moves.
; CHECK-LABEL: define void @stored(
; CHECK: store double %x, ptr %out
; CHECK-NEXT: %r = load double, ptr %rot
; CHECK-NEXT: %dx = load double, ptr %dX
; CHECK-NEXT: %s = call fast double @llvm.sin.f64(double %r)
define void @stored(ptr %rot, ptr %X, ptr %dX, ptr %out, ptr %dout) {
  %x = load double, ptr %X, align 8
  store double %x, ptr %out, align 8
  %r = load double, ptr %rot, align 8
  %dx = load double, ptr %dX, align 8, !alias.scope !2, !noalias !4
  %s = call fast double @llvm.sin.f64(double %r)
  %m = fmul fast double %s, %dx
  store double %m, ptr %dout, align 8, !alias.scope !2, !noalias !4
  ret void
}

; The angle's address needs a division, which might trap: nothing moves.
; CHECK-LABEL: define void @division(
; CHECK: %dx = load double, ptr %dX
; CHECK-NEXT: %k = sdiv i64 %n, %d
; CHECK-NEXT: %g = getelementptr double, ptr %rot, i64 %k
; CHECK-NEXT: %r = load double, ptr %g
; CHECK-NEXT: %s = call fast double @llvm.sin.f64(double %r)
define void @division(ptr %rot, ptr %dX, ptr %dout, i64 %n, i64 %d) {
  %dx = load double, ptr %dX, align 8, !alias.scope !2, !noalias !4
  %k = sdiv i64 %n, %d
  %g = getelementptr double, ptr %rot, i64 %k
  %r = load double, ptr %g, align 8
  %s = call fast double @llvm.sin.f64(double %r)
  %m = fmul fast double %s, %dx
  store double %m, ptr %dout, align 8, !alias.scope !2, !noalias !4
  ret void
}

; The call's block is a loop's body: nothing leaves the loop.
; CHECK-LABEL: define void @loop(
; CHECK: body:
; CHECK-NEXT: %i = phi
; CHECK-NEXT: %g = getelementptr
; CHECK-NEXT: %s = call fast double @llvm.sin.f64(double %a)
define void @loop(double %b, ptr %dout, i64 %n) {
entry:
  %a = fmul fast double %b, %b
  br label %body

body:
  %i = phi i64 [ 0, %entry ], [ %i1, %body ]
  %g = getelementptr double, ptr %dout, i64 %i
  %s = call fast double @llvm.sin.f64(double %a)
  store double %s, ptr %g, align 8, !alias.scope !2, !noalias !4
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %body, label %exit

exit:
  ret void
}

; No shadow access: the user's code is left as it is.
; CHECK-LABEL: define double @primal(
; CHECK: %x = load double, ptr %X
; CHECK-NEXT: %r = load double, ptr %rot
; CHECK-NEXT: %m = fmul fast double %x, %x
; CHECK-NEXT: %s = call fast double @llvm.sin.f64(double %r)
define double @primal(ptr %rot, ptr %X) {
  %x = load double, ptr %X, align 8
  %r = load double, ptr %rot, align 8
  %m = fmul fast double %x, %x
  %s = call fast double @llvm.sin.f64(double %r)
  %p = fmul fast double %s, %m
  ret double %p
}

!0 = !{!"adcc.memory"}
!1 = !{!"adcc.shadow", !0}
!2 = !{!1}
!3 = !{!"adcc.primal", !0}
!5 = !{!"adcc.tape", !0}
!4 = !{!3, !5}
