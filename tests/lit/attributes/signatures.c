// The derivative's signature, rule by rule (docs/api.md): a Const
// parameter is passed as is; Dual / DualOnly add a shadow after it (one per
// batch lane), of the same type except that a pointer to const gets a
// pointer to mutable data; the return value is the primal's (Const), its
// tangent (DualOnly) or a struct with both (Dual), with arrays of tangents
// in batch mode; void stays void.
// RUN: %adcc -fsyntax-only -Xclang -ast-print %s -o - | FileCheck %s
#include <adcc.h>

// CHECK-LABEL: struct __adcc_d_sq_result {
// CHECK-NEXT:      double primal;
// CHECK-NEXT:      double d_return;
// CHECK-NEXT:  };
// CHECK-NEXT:  struct __adcc_d_sq_result d_sq(double x, double d_x);
ADCC_FORWARD(d_sq, Dual, Dual) double sq(double x);

// CHECK: double d_c(double a, double b, double d_b);
ADCC_FORWARD(d_c, Const, Dual, DualOnly) double c(double a, double b);

// CHECK: float d_k(float x, float d_x, int n);
ADCC_FORWARD(d_k, Dual, Const, Const) float k(float x, int n);

// CHECK: double d_dot(const double *x, double *d_x, const double *y, int n);
ADCC_FORWARD(d_dot, Dual, Const, Const, DualOnly) double dot(const double *x, const double *y, int n);

// CHECK: void d_scale(double *x, double *d_x, int *idx, int *d_idx);
ADCC_FORWARD(d_scale, DualOnly, Dual) void scale(double *x, int *idx);

// CHECK-LABEL: struct __adcc_d_b_result {
// CHECK-NEXT:      double primal;
// CHECK-NEXT:      double d_return[3];
// CHECK-NEXT:  };
// CHECK-NEXT:  struct __adcc_d_b_result d_b(double x, double d_x_0, double d_x_1, double d_x_2, int n);
ADCC_FORWARD_BATCH(d_b, 3, Dual, Const, Dual) double b(double x, int n);

// CHECK-LABEL: struct __adcc_d_bo_result {
// CHECK-NEXT:      double d_return[2];
// CHECK-NEXT:  };
// CHECK-NEXT:  struct __adcc_d_bo_result d_bo(const double *p, double *d_p_0, double *d_p_1);
ADCC_FORWARD_BATCH(d_bo, 2, Dual, DualOnly) double bo(const double *p);

// CHECK: double d_bc(double x, double d_x_0, double d_x_1);
ADCC_FORWARD_BATCH(d_bc, 2, Dual, Const) double bc(double x);

// A batch of width 1 is the plain form.
// CHECK: double d_b1(double x, double d_x);
ADCC_FORWARD_BATCH(d_b1, 1, Dual, DualOnly) double b1(double x);

// Unnamed parameters give unnamed shadows; typedef names are kept.
typedef double real;
// CHECK: real d_un(real, real, int);
ADCC_FORWARD(d_un, Dual, Const, DualOnly) real un(real, int);

// CHECK: static struct __adcc_d_st_result d_st(double x, double d_x);
static ADCC_FORWARD(d_st, Dual, Dual) double st(double x) { return x; }

// CHECK: void d_none(void);
ADCC_FORWARD(d_none) void none(void);
