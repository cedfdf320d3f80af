// Forward over reverse (a Hessian-vector product): the reverse sweep reads
// back the pointers its augmented sweep recorded, with the tangents that
// the outer request gave them in their shadow records. Where the function
// running both sweeps gives them tangents that are never null (its own
// duplicated arguments), the reverse sweep's accesses through them are not
// guarded, and its loop vectorizes. Where it gives them none (the outer
// request passes the pointer enzyme_const), the shadow record always holds
// null: nothing is read through it (zeros), what is written through it
// goes into a sink. (Records whose tangent is known neither way keep a
// guard per access: hvp-restrict.c, e2e rev_hvp_fwdrev.c.)
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

static double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

static void grad(const double *x, double *g, int n) {
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, g, enzyme_const, n);
}

// CHECK-LABEL: define {{.*}} @hvp(
// CHECK-NOT: @adcc.zero.tangents
// CHECK-NOT: @adcc.shadow.sink
// CHECK: fmul <2 x double>
// CHECK-NOT: @adcc.zero.tangents
// CHECK-NOT: @adcc.shadow.sink
// CHECK: ret void
void hvp(const double *x, const double *v, double *g, double *hv, int n) {
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv,
                   enzyme_const, n);
}

// (x constant in the outer request: its shadow record holds null, the
// tangents read through it are zeros.)
// CHECK-LABEL: define {{.*}} @hvp_const_x(
// CHECK-NOT: @adcc.zero.tangents
// CHECK: fmul <2 x double>
// CHECK-NOT: @adcc.zero.tangents
// CHECK: ret void
void hvp_const_x(const double *x, double *g, double *hv, int n) {
  __enzyme_fwddiff((void *)grad, enzyme_const, x, enzyme_dup, g, hv,
                   enzyme_const, n);
}

// (The gradient constant in the outer request: its tangents go nowhere.)
// CHECK-LABEL: define {{.*}} @hvp_const_g(
// CHECK-NOT: select i1 %{{.*}}, ptr @adcc.shadow.sink
// CHECK: store double %{{.*}}, ptr @adcc.shadow.sink.64
// CHECK-NOT: select i1 %{{.*}}, ptr @adcc.shadow.sink
// CHECK: ret void
void hvp_const_g(const double *x, const double *v, double *g, int n) {
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_const, g,
                   enzyme_const, n);
}
