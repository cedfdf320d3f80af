// Quotients by one divisor share one division in the derivatives: the
// adjoints of a / t and b / t (both lanes of a width-2 sweep) and their
// tangents (all four lanes) multiply by the reciprocal of t, computed once.
// Before, each adjoint divided twice per lane (da = d / t and
// dt = -(d q) / t), and each tangent once per lane.
// (-O1: no vectorizer packs divisions together.)
// RUN: %adcc -O1 -S -emit-llvm %s -o - | FileCheck %s
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_width, enzyme_dupv;

__attribute__((noinline)) void project(const double *restrict x,
                                       double *restrict y) {
  y[0] = x[0] / x[2];
  y[1] = x[1] / x[2];
}

// Both rows of the Jacobian of project by one reverse sweep: the two
// primal quotients and one reciprocal for the adjoints of both lanes.
// CHECK-LABEL: define {{.*}}void @rows(
// CHECK-COUNT-3: fdiv
// CHECK-NOT: fdiv
// CHECK: ret void
void rows(const double *x, double g[2][3]) {
  double y[2], dy[2][2] = {{1, 0}, {0, 1}};
  __enzyme_autodiff((void *)project, enzyme_width, 2, enzyme_dupv,
                    sizeof g[0], x, g[0], enzyme_dupv, sizeof dy[0], y, dy[0]);
}

// Four tangents: the two primal quotients and one reciprocal.
// CHECK-LABEL: define {{.*}}void @columns(
// CHECK-COUNT-3: fdiv
// CHECK-NOT: fdiv
// CHECK: ret void
void columns(const double *x, double dx[4][3], double *y, double dy[4][2]) {
  __enzyme_fwddiff((void *)project, enzyme_width, 4, enzyme_dupv, sizeof dx[0],
                   x, dx[0], enzyme_dupv, sizeof dy[0], y, dy[0]);
}
