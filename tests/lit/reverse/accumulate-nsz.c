// Adjoint sums ignore the sign of zero (`fadd nsz`): the reverse of
// `q[r] += l[r]` with l constant zeroes dq[r] and adds it back, which folds
// away, so the gradient has no reverse loop at all. (With a plain fadd the
// sweep kept a loop computing dq[r] + 0.0.)
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static void shift(double *restrict q, const double *restrict l, int n) {
  for (int r = 0; r < n; r++)
    q[r] += l[r];
}
void grad(double *q, double *dq, const double *l, int n) {
  __enzyme_autodiff((void *)shift, enzyme_dup, q, dq, enzyme_const, l,
                    enzyme_const, n);
}

// The primal loop (vectorized, then its remainder) and nothing else.
// CHECK-LABEL: define {{.*}} @grad(
// CHECK-COUNT-2: !llvm.loop
// CHECK-NOT: !llvm.loop
// CHECK-NOT: fadd {{.*}}zeroinitializer
// CHECK-NOT: fadd {{.*}}0.000000e+00
// CHECK: ret void
