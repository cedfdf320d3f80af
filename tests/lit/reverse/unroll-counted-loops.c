// Under -fno-unroll-loops (and at -O1) the optimizer after adcc's pass
// unrolls no loop. A combined gradient's reverse loops get their trip
// count from the forward sweep's records; once the sweeps are inlined
// into the gradient that count is a constant, but only after GVN, which
// runs after the simplification's full unrolling: the reverse loops under
// the branch below (3 iterations) stayed loops, reading their records
// from arrays in the frame (BA's Rodrigues rotation in bench/smallcalls,
// 674 instructions per gradient call; 513 unrolled). adcc now unrolls
// the loops that the simplification made countable and simplifies again.
// -mllvm -adcc-unroll-derivative-loops=false keeps them (and the arrays).
// The numbers: at -O0, -O1, -O2 and with Enzyme's flags, against central
// differences.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O2 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O2 -fno-unroll-loops -fno-vectorize -fno-slp-vectorize -mllvm -adcc-unroll-derivative-loops=false -S -emit-llvm %s -o - | FileCheck %s --check-prefix=KEPT
// RUN: %adcc -O0 %s -o %t/o0 -lm && %t/o0 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O1 %s -o %t/o1 -lm && %t/o1 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 %s -o %t/o2 -lm && %t/o2 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 -ffast-math -fno-unroll-loops -fno-vectorize -fno-slp-vectorize %s -o %t/ef -lm && %t/ef | FileCheck %s --check-prefix=OUT
//
// CHECK-LABEL: define {{.*}} @grad_rotb(
// CHECK-NOT: alloca
// CHECK-NOT: phi i64
// CHECK: ret void
// KEPT-LABEL: define {{.*}} @grad_rotb(
// KEPT: alloca
// KEPT: phi i64
// OUT: ok
// OUT: ok

#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);

// y[i] = t[i] t[i+1] w with t = x / |x| (indices mod 3), x w elsewhere.
__attribute__((noinline)) void rotb(const double *x, const double *w,
                                    double *y) {
  double s = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  if (s != 0) {
    double r = sqrt(s), t[3];
    for (int i = 0; i < 3; i++)
      t[i] = x[i] / r;
    for (int i = 0; i < 3; i++)
      y[i] = t[i] * t[(i + 1) % 3] * w[0];
  } else {
    y[0] = x[0] * w[0];
    y[1] = x[1] * w[0];
    y[2] = x[2] * w[0];
  }
}

__attribute__((noinline)) void grad_rotb(const double *x, double *dx,
                                         const double *w, double *dw,
                                         double *y, double *dy) {
  __enzyme_autodiff((void *)rotb, enzyme_dup, x, dx, enzyme_dup, w, dw,
                    enzyme_dupnoneed, y, dy);
}

static const double c[3] = {0.5, -2.0, 1.5};

static double loss(const double *x, double w) {
  double y[3];
  rotb(x, &w, y);
  return c[0] * y[0] + c[1] * y[1] + c[2] * y[2];
}

// The gradient of sum c[i] y[i] against central differences, at a point of
// each branch.
static void check(double *x, double w) {
  double dx[3] = {0}, dw = 0, y[3], dy[3] = {c[0], c[1], c[2]};
  grad_rotb(x, dx, &w, &dw, y, dy);
  double bad = 0, h = 1e-6;
  for (int i = 0; i < 3; i++) {
    double keep = x[i];
    x[i] = keep + h;
    double up = loss(x, w);
    x[i] = keep - h;
    double down = loss(x, w);
    x[i] = keep;
    bad = fmax(bad, fabs(dx[i] - (up - down) / (2 * h)));
  }
  bad = fmax(bad, fabs(dw - (loss(x, w + h) - loss(x, w - h)) / (2 * h)));
  printf("%s (error %g)\n", bad < 1e-8 ? "ok" : "WRONG", bad);
}

int main(void) {
  double x[3] = {0.7, -1.3, 2.1}, zero[3] = {0, 0, 0};
  check(x, 1.4);
  // (s == 0: the other branch; differences of h around 0 leave it, so
  // the gradient there is w c and x c, checked exactly.)
  double dx[3] = {0}, dw = 0, y[3], dy[3] = {c[0], c[1], c[2]};
  grad_rotb(zero, dx, &(double){1.4}, &dw, y, dy);
  int ok = dw == 0;
  for (int i = 0; i < 3; i++)
    ok &= dx[i] == 1.4 * c[i];
  printf("%s\n", ok ? "ok" : "WRONG");
  return 0;
}
