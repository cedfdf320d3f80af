// Forward over reverse of an objective with __restrict__ parameters: the
// reverse sweep reads the constant parameter again through its recorded
// pointer, whose shadow record holds null (the outer request has it
// constant). Before issue 33 its tangents were read at address 0 (a crash
// from -O1); then from a block of zeros, one guarded read per access. The
// function that runs both sweeps passes the augmented sweep no tangent for
// p, so the reverse sweep's key says that record's tangent is always null
// (DerivativeKey::NullRecords): p's tangent is 0 where it is read, no
// guard is left. (Shadow records that may hold null at run time keep their
// guards: e2e rev_hvp_fwdrev.c, rev_const_pointers_o0.c.)
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}} @hvp(
// CHECK-NOT: @adcc.zero.tangents
// CHECK: call reassoc nsz double @llvm.fmuladd.f64(double %{{.*}}, double 0.000000e+00,
// CHECK-NOT: @adcc.zero.tangents
// CHECK: ret void
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

static double f(const double *__restrict__ x, const double *__restrict__ p,
                int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * x[i] * x[i];
  return s;
}

static void g(const double *x, double *dx, const double *p, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, p,
                    enzyme_const, n);
}

void hvp(const double *x, const double *v, double *gr, double *hv,
         const double *p, int n) {
  __enzyme_fwddiff((void *)g, enzyme_dup, x, v, enzyme_dup, gr, hv,
                   enzyme_const, p, enzyme_const, n);
}
