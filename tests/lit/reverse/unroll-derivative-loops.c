// Under -fno-unroll-loops (the flags of Enzyme's benchmarks) clang marks
// every loop llvm.loop.unroll.disable, and a derivative's loops are clones
// of the primal's. adcc drops that mark in the derivatives (its own code),
// so that their loops of a few iterations known at compile time are fully
// unrolled: what each iteration records then lives in registers, not in
// arrays of the frame indexed by the iteration. The primal keeps its loops.
// -mllvm -adcc-unroll-derivative-loops=false keeps the mark (the loops and
// the frame arrays stay). The numbers: at -O0, -O2 and -O2 with Enzyme's
// flags, against the analytic gradient.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O2 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O2 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize -mllvm -adcc-unroll-derivative-loops=false -S -emit-llvm %s -o - | FileCheck %s --check-prefix=KEPT
// RUN: %adcc -O0 %s -o %t/o0 && %t/o0 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 %s -o %t/o2 && %t/o2 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 -ffast-math -fno-unroll-loops -fno-vectorize -fno-slp-vectorize %s -o %t/ef && %t/ef | FileCheck %s --check-prefix=OUT
//
// CHECK-LABEL: define {{.*}} @rot(
// CHECK: !llvm.loop
// CHECK-LABEL: define {{.*}} @grad_rot(
// CHECK-NOT: alloca
// CHECK-NOT: !llvm.loop
// CHECK: ret void
// KEPT-LABEL: define {{.*}} @grad_rot(
// KEPT: alloca
// KEPT: !llvm.loop
// OUT: ok

int printf(const char *, ...);
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) void rot(const double *x, const double *w,
                                   double *y) {
  double t[3];
  for (int i = 0; i < 3; i++)
    t[i] = x[i] * w[0];
  for (int i = 0; i < 3; i++)
    y[i] = t[i] * t[(i + 1) % 3] * w[0];
}

__attribute__((noinline)) void grad_rot(const double *x, double *dx,
                                        const double *w, double *dw,
                                        double *y, double *dy) {
  __enzyme_autodiff((void *)rot, enzyme_dup, x, dx, enzyme_dup, w, dw,
                    enzyme_dupnoneed, y, dy);
}

int main(void) {
  // y[i] = x[i] x[i+1] w^3 (indices mod 3); the gradient of
  // sum_i c[i] y[i].
  double x[3] = {0.7, -1.3, 2.1}, w = 1.4, c[3] = {0.5, -2.0, 1.5};
  double dx[3] = {0}, dw = 0, y[3], dy[3] = {c[0], c[1], c[2]};
  grad_rot(x, dx, &w, &dw, y, dy);
  double w3 = w * w * w, bad = 0;
  for (int i = 0; i < 3; i++) {
    int n = (i + 1) % 3, p = (i + 2) % 3;
    double want = (c[i] * x[n] + c[p] * x[p]) * w3;
    double e = dx[i] - want;
    bad += e < 0 ? -e : e;
  }
  double want_w = 0;
  for (int i = 0; i < 3; i++)
    want_w += 3 * c[i] * x[i] * x[(i + 1) % 3] * w * w;
  bad += dw - want_w < 0 ? want_w - dw : dw - want_w;
  printf("%s (error %g)\n", bad < 1e-12 ? "ok" : "WRONG", bad);
  return 0;
}
