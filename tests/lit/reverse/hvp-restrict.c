// Forward over reverse of an objective with __restrict__ parameters: the
// reverse sweep reads the constant parameter again through its recorded
// pointer, whose shadow record holds null (the outer request has it
// constant). Its tangents are read from a block of zeros instead of
// address 0 (a crash from -O1: issue 33).
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s
// CHECK: @adcc.zero.tangents.64 = private constant [64 x i8] zeroinitializer
// CHECK-LABEL: define {{.*}} @hvp(
// CHECK: select i1 %{{.*}}, ptr @adcc.zero.tangents.64, ptr
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
