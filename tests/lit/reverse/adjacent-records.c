// A short loop in each arm of a branch (3 iterations, Rodrigues' rotation
// and its small-angle form in BA's residual): under -fno-unroll-loops the
// sweeps' simplification merged the two arms' records at the loops' exits
// (the trip count, the address of the records' array) into one push where
// the arms join, and the reverse sweep's pops into one before its branch,
// dropping the tags that keep a combined gradient's records in its frame:
// one push and one pop through the runtime per gradient call. A pop that
// follows its push with nothing between them that may touch the tape
// reads what the push wrote: the pair is a stack slot now, and the records
// registers.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc -O2 -ffast-math -fno-unroll-loops -fno-vectorize -fno-slp-vectorize -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O2 -ffast-math -fno-unroll-loops -fno-vectorize -fno-slp-vectorize -S -emit-llvm %s -o /dev/null -Rpass=adcc 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %adcc -O0 %s -o %t/o0 -lm && %t/o0 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O1 %s -o %t/o1 -lm && %t/o1 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 %s -o %t/o2 -lm && %t/o2 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O3 %s -o %t/o3 -lm && %t/o3 | FileCheck %s --check-prefix=OUT
// RUN: %adcc -O2 -ffast-math -fno-unroll-loops -fno-vectorize -fno-slp-vectorize %s -o %t/ef -lm && %t/ef | FileCheck %s --check-prefix=OUT
//
// CHECK-LABEL: define {{.*}} @grad_rotc(
// CHECK-NOT: adcc_tape_push
// CHECK-NOT: adcc_tape_pop
// CHECK: ret void
// REMARK: gradient of 'rotc': 384 bytes of records in its frame, 0 pushes of the thread's tape left in its code
// OUT: ok
// OUT: ok

#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);

// x > 0: y[i] = t[i] t[i+1] w with t = x / |x| (indices mod 3);
// else y[i] = t[i] t[i+2] with t = x w.
__attribute__((noinline)) void rotc(const double *x, const double *w,
                                    double *y) {
  double s = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
  if (x[0] > 0) {
    double r = sqrt(s), t[3];
    for (int i = 0; i < 3; i++)
      t[i] = x[i] / r;
    for (int i = 0; i < 3; i++)
      y[i] = t[i] * t[(i + 1) % 3] * w[0];
  } else {
    double t[3];
    for (int i = 0; i < 3; i++)
      t[i] = x[i] * w[0];
    for (int i = 0; i < 3; i++)
      y[i] = t[i] * t[(i + 2) % 3];
  }
}

__attribute__((noinline)) void grad_rotc(const double *x, double *dx,
                                         const double *w, double *dw,
                                         double *y, double *dy) {
  __enzyme_autodiff((void *)rotc, enzyme_dup, x, dx, enzyme_dup, w, dw,
                    enzyme_dupnoneed, y, dy);
}

static const double c[3] = {0.5, -2.0, 1.5};

static double loss(const double *x, double w) {
  double y[3];
  rotc(x, &w, y);
  return c[0] * y[0] + c[1] * y[1] + c[2] * y[2];
}

// The gradient of sum c[i] y[i] against central differences, at a point of
// each branch (three calls each: the records of one call must not leak
// into the next).
static void check(double *x, double w) {
  int ok = 1;
  for (int rep = 0; rep < 3; rep++) {
    double dx[3] = {0}, dw = 0, y[3], dy[3] = {c[0], c[1], c[2]};
    grad_rotc(x, dx, &w, &dw, y, dy);
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
    if (!(bad < 1e-7)) {
      printf("WRONG (error %g)\n", bad);
      ok = 0;
    }
  }
  if (ok)
    printf("ok\n");
}

int main(void) {
  double a[3] = {0.7, -1.3, 2.1}, b[3] = {-0.4, 0.9, 1.7};
  check(a, 1.4);
  check(b, 0.8);
  return 0;
}
