// A combined gradient whose function calls another one that is not inlined
// (here noinline; in practice a callee too large for the inliner): the
// callee's augmented and reverse sweeps, called once each from the sweeps
// of the gradient, are inlined with them, and what the callee records
// outside loops (its values, the shadow of its local array) lives in the
// frame of the gradient, as the function's own records do: no runtime
// call manages a tape. Before, the callee's sweeps stayed functions of
// their own that pushed and popped their records through the thread's
// tape (the shadow block of 'tmp' through the runtime at every call).
// RUN: %adcc -O2 -fno-unroll-loops -S -emit-llvm %s -o - | FileCheck %s
double sin(double), cos(double);
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;

__attribute__((noinline)) void rotate(const double *restrict r,
                                      const double *restrict a,
                                      double *restrict out) {
  double t = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  double tmp[3];
  for (int i = 0; i < 3; i++)
    tmp[i] = a[i] * cos(t) + r[i] * sin(t);
  for (int i = 0; i < 3; i++)
    out[i] = tmp[i] * tmp[(i + 1) % 3] / (1 + t);
}

void residual(const double *restrict cam, const double *restrict x,
              double *restrict err) {
  double p[3];
  rotate(cam, x, p);
  err[0] = p[0] / p[2];
  err[1] = p[1] / p[2];
}

// (The gradient is inlined into 'grad'.)
// CHECK-LABEL: define {{.*}}@grad(
// CHECK-NOT: adcc_tape
// CHECK: ret void
// CHECK-NOT: adcc_tape
void grad(const double *cam, double *dcam, const double *x, double *dx,
          double *err, double *derr) {
  __enzyme_autodiff((void *)residual, enzyme_dup, cam, dcam, enzyme_dup, x,
                    dx, enzyme_dupnoneed, err, derr);
}
