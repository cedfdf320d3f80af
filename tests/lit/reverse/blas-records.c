// The record of a BLAS call holds copies only of the arrays that may
// change before the reverse sweep (docs/rules.md#blas): A and x below are
// arguments the function never writes, and y is its own buffer, so the
// augmented call passes the mask 3 (A and x read again). Where the
// function writes memory that may be A's or x's (a store through A after
// the call, the second function; an output C without restrict that may
// alias A and B, the third), both are copied (mask 0); with restrict
// arguments (the fourth) A and B are read again. y and C, the calls'
// outputs, are always copied for beta's adjoint.
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-DAG: call ptr @adcc_blas_dgemv_aug({{.*}}, i32 3)
// CHECK-DAG: call ptr @adcc_blas_dgemv_aug({{.*}}, i32 0)
// CHECK-DAG: call ptr @adcc_blas_dgemm_aug({{.*}}, i32 0)
// CHECK-DAG: call ptr @adcc_blas_dgemm_aug({{.*}}, i32 3)
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
void cblas_dgemv(int layout, int trans, int m, int n, double alpha,
                 const double *a, int lda, const double *x, int incx,
                 double beta, double *y, int incy);
void cblas_dgemm(int layout, int ta, int tb, int m, int n, int k,
                 double alpha, const double *a, int lda, const double *b,
                 int ldb, double beta, double *c, int ldc);

static double stable(const double *A, const double *x) {
  double y[3] = {1, 2, 3};
  cblas_dgemv(101, 111, 3, 4, 1.5, A, 4, x, 1, 0.5, y, 1);
  return y[0] * y[1] + y[2];
}

static double overwritten(double *A, const double *x) {
  double y[3] = {1, 2, 3};
  cblas_dgemv(101, 111, 3, 4, 1.5, A, 4, x, 1, 0.5, y, 1);
  A[0] = y[1];
  return y[0] * y[1] + y[2] * A[0];
}

static double aliasing(const double *A, const double *B, double *C) {
  cblas_dgemm(102, 111, 111, 2, 2, 2, 1.0, A, 2, B, 2, 1.0, C, 2);
  return C[0] * C[3];
}

static double restricted(const double *restrict A, const double *restrict B,
                         double *restrict C) {
  cblas_dgemm(102, 111, 111, 2, 2, 2, 1.0, A, 2, B, 2, 1.0, C, 2);
  return C[0] * C[3];
}

void grads(double *A, double *dA, double *x, double *dx, double *B,
           double *dB, double *C, double *dC) {
  __enzyme_autodiff((void *)stable, enzyme_dup, A, dA, enzyme_dup, x, dx);
  __enzyme_autodiff((void *)overwritten, enzyme_dup, A, dA, enzyme_dup, x,
                    dx);
  __enzyme_autodiff((void *)aliasing, enzyme_dup, A, dA, enzyme_dup, B, dB,
                    enzyme_dup, C, dC);
  __enzyme_autodiff((void *)restricted, enzyme_dup, A, dA, enzyme_dup, B, dB,
                    enzyme_dup, C, dC);
}
