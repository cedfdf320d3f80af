// A combined gradient runs its two sweeps from one function,
// gradient_<f>, into which both are inlined; what the augmented sweep
// records outside loops then stays in that function's frame (SROA makes
// it registers) instead of going through the thread's tape: the values
// recorded once, at its return, those of a branch (pushed at most once per
// call), and the trip counts recorded at a loop's exit. Only records made
// inside loops use the tape.
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc -O2 -c -fadcc-print-tape-plan %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAN
#include <math.h>
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

__attribute__((noinline)) void project(const double *cam, const double *x,
                                       double *out) {
  double a = x[0] - cam[0], b = x[1] - cam[1], c = x[2] - cam[2];
  double t = a * a + b * b + c * c;
  if (t > 1)
    t = sin(t) * cos(t);
  out[0] = (a * cam[3] + b) / (c + t);
  out[1] = (b * cam[4] - a) / (c + t);
}

// The plan still lists the end records (where they go is decided later).
// PLAN: adcc: reverse mode of 'project'
// PLAN: once, at the return

// Nothing of the tape is left where project's gradient runs.
// CHECK-LABEL: define {{.*}}void @site1(
// CHECK-NOT: @adcc_tape_
// CHECK: ret void
void site1(const double *cam, double *dcam, const double *x, double *out,
           double *dout) {
  __enzyme_autodiff((void *)project, enzyme_dup, cam, dcam, enzyme_const, x,
                    enzyme_dup, out, dout);
}

// A loop with a data-dependent trip count: one record per iteration on
// the tape (a push in the augmented loop, a pop in the reversed one); its
// trip count, recorded at the exit, stays in the frame.
__attribute__((noinline)) double grow(const double *x) {
  double s = x[0];
  while (s < 10)
    s = s * (1.5 + sin(s * x[1]));
  return s;
}

// CHECK-LABEL: define {{.*}}void @site2(
// CHECK-NOT: @adcc_tape_pop(
// CHECK: call ptr @adcc_tape_push(ptr {{.*}}, i64 [[BYTES:[0-9]+]], i64 8)
// CHECK-NOT: @adcc_tape_push(
// CHECK: call ptr @adcc_tape_pop(ptr {{.*}}, i64 [[BYTES]], i64 8)
// CHECK-NOT: @adcc_tape_
// CHECK: ret void
// CHECK-NOT: define {{.*}}@augmented_
// CHECK-NOT: define {{.*}}@diffe_
void site2(const double *x, double *dx) {
  __enzyme_autodiff((void *)grow, x, dx);
}

// The function ADCC_REVERSE declares runs the two sweeps the same way.
// Nothing is left of the tape, not even the call that finds it
// (adcc_tape_thread is declared to read only the runtime's memory).
// RUN: %adcc -O2 -S -emit-llvm -DATTRIBUTE %s -o - \
// RUN:   | FileCheck %s --check-prefix=ATTR
#ifdef ATTRIBUTE
#include <adcc.h>
ADCC_REVERSE(d_norm, Duplicated, Active)
double norm(const double *x);
double norm(const double *x) {
  return sqrt(x[0] * x[0] + x[1] * x[1]) + x[0] / x[1];
}
// ATTR-LABEL: define {{.*}}double @d_norm(
// ATTR-NOT: call {{.*}}@augmented_norm(
// ATTR-NOT: call {{.*}}@diffe_norm(
// ATTR-NOT: @adcc_tape_
// ATTR: ret double
#endif

// Loops of a constant trip count keep their per-iteration records in an
// array of constant length, and stack arrays get shadow blocks of constant
// size: a combined gradient keeps both in its frame too, as it does with
// the records of blocks outside loops however many blocks the function
// has (which blocks are in cycles is computed exactly). Nothing of the
// tape is left here either.
// RUN: %adcc -O2 -fno-unroll-loops -ffast-math -S -emit-llvm -DFIXED_LOOPS \
// RUN:   %s -o - | FileCheck %s --check-prefix=FIXED
#ifdef FIXED_LOOPS
extern int enzyme_dupnoneed;
static void turn(const double *r, const double *x, double *o) {
  double t2 = 0;
  for (int i = 0; i < 3; i++)
    t2 += r[i] * r[i];
  if (t2 != 0) {
    double t = sqrt(t2), c = cos(t), s = sin(t);
    double w[3], wx[3], d = 0;
    for (int i = 0; i < 3; i++)
      w[i] = r[i] / t;
    wx[0] = w[1] * x[2] - w[2] * x[1];
    wx[1] = w[2] * x[0] - w[0] * x[2];
    wx[2] = w[0] * x[1] - w[1] * x[0];
    for (int i = 0; i < 3; i++)
      d += w[i] * x[i];
    for (int i = 0; i < 3; i++)
      o[i] = x[i] * c + wx[i] * s + w[i] * (1 - c) * d;
  } else {
    for (int i = 0; i < 3; i++)
      o[i] = x[i] + r[(i + 1) % 3] * x[(i + 2) % 3];
  }
}
__attribute__((noinline)) static void reproject(const double *cam,
                                                const double *X, double *err) {
  double Xo[3], Xc[3];
  for (int i = 0; i < 3; i++)
    Xo[i] = X[i] - cam[3 + i];
  turn(cam, Xo, Xc);
  double p0 = Xc[0] / Xc[2], p1 = Xc[1] / Xc[2];
  double L = 1 + cam[7] * (p0 * p0 + p1 * p1);
  err[0] = cam[6] * L * p0;
  err[1] = cam[6] * L * p1;
}
// FIXED-LABEL: define {{.*}}void @site3(
// FIXED-NOT: @adcc_tape_
// FIXED: ret void
void site3(const double *cam, double *dcam, const double *X, double *dX,
           double *err, double *derr) {
  __enzyme_autodiff((void *)reproject, enzyme_dup, cam, dcam, enzyme_dup, X,
                    dX, enzyme_dupnoneed, err, derr);
}
#endif

// A callee the primal keeps as a call, at several call sites of
// straight-line code (here a loop of 4 iterations, unrolled): its sweeps
// are inlined at each site, and each site's records get a slot of the
// frame (the last site's augmented records read by the first reverse
// sweep); in a loop of a trip count known at run time, the records go to
// the tape, through one handle for the whole gradient.
// RUN: %adcc -O2 -S -emit-llvm -DSITES %s -o - | FileCheck %s --check-prefix=SITES
// The remark says where the records went: 4 x 40 bytes in the frame.
// RUN: %adcc -O2 -c -DSITES -Rpass=adcc %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WHERE
// WHERE: remark: gradient of 'grow': {{[0-9]+}} bytes of records in its frame, 1 pushes of the thread's tape left in its code
// WHERE: remark: gradient of 'four': 160 bytes of records in its frame, 0 pushes of the thread's tape left in its code [-Rpass=adcc]
// WHERE: remark: gradient of 'two': {{[0-9]+}} bytes of records in its frame, 0 pushes of the thread's tape left in its code [-Rpass=adcc]
// WHERE: remark: gradient of 'many': {{[0-9]+}} bytes of records in its frame, 1 pushes of the thread's tape left in its code [-Rpass=adcc]
#ifdef SITES
__attribute__((noinline)) static double piece(const double *p) {
  return sin(p[0]) * p[1];
}
static double four(const double *x) {
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += piece(x + 2 * i);
  return s;
}
__attribute__((noinline)) static double cell(const double *p) {
  return cos(p[0]) * p[1];
}
static double many(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += cell(x + i);
  return s;
}
// SITES-LABEL: define {{.*}}void @site4(
// SITES-NOT: @adcc_tape_
// SITES: ret void
void site4(const double *x, double *dx) {
  __enzyme_autodiff((void *)four, enzyme_dup, x, dx);
}
// A second gradient of the file whose sweeps call the same callee's
// sweeps: each gradient gets its own copies, records in its own frame.
static double two(const double *x) { return piece(x) * piece(x + 3); }
// SITES-LABEL: define {{.*}}void @site6(
// SITES-NOT: @adcc_tape_
// SITES: ret void
void site6(const double *x, double *dx) {
  __enzyme_autodiff((void *)two, enzyme_dup, x, dx);
}
// SITES-LABEL: define {{.*}}void @site5(
// SITES: call ptr @adcc_tape_thread()
// SITES-NOT: call ptr @adcc_tape_thread()
// SITES: ret void
void site5(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)many, enzyme_dup, x, dx, enzyme_const, n);
}
#endif
