/* Derivatives through CBLAS calls (docs/rules.md#blas), written as
 * programs for Enzyme call them: each objective copies its parameters into
 * operands with leading dimensions and increments larger than needed
 * (negative ones too), calls one routine in double, and sums a nonlinear
 * function of every output element, padding included. Gradients by
 * __enzyme_autodiff against central differences and, along a random
 * direction, against __enzyme_fwddiff; constant operands (enzyme_const)
 * and operands the program overwrites after the call. Linked with -lblas
 * (Debian's reference BLAS exports the CBLAS spelling too). */
#include "rev_check.h"

#include <cblas.h>

enum { M = 3, N = 2, K = 4, LD = 5, BUF = 20 };

/* sum of w_i v_i + v_i^2 / 2: every output gets a different adjoint */
static double reduce(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (0.3 + 0.1 * i) * v[i] + 0.5 * v[i] * v[i];
  return s;
}

static void load(double *to, const double *p, int n) {
  for (int i = 0; i < n; ++i)
    to[i] = p[i];
}

/* A matrix and two vectors: p = [A (BUF) | x (8) | y (8)] */
static void load_axy(double *A, double *x, double *y, const double *p) {
  load(A, p, BUF);
  load(x, p + BUF, 8);
  load(y, p + BUF + 8, 8);
}

/*--- level 1 ---------------------------------------------------------------*/

static double obj_dot(const double *p) {
  double x[8], y[8];
  load(x, p, 8);
  load(y, p + 8, 8);
  double r = cblas_ddot(3, x, 2, y, -2);
  /* (the program overwrites both operands afterwards) */
  x[0] = 2 * r;
  y[4] = r * r;
  return r * r + 0.1 * r + x[0] + y[4];
}

static double obj_axpy(const double *p) {
  double x[8], y[8];
  load(x, p, 8);
  load(y, p + 8, 8);
  cblas_daxpy(3, p[16], x, -2, y, 3);
  return reduce(y, 8);
}

static double obj_scal(const double *p) {
  double x[8];
  load(x, p, 8);
  cblas_dscal(4, p[8], x, 2);
  return reduce(x, 8);
}

static double obj_copy(const double *p) {
  double x[8], y[8];
  load(x, p, 8);
  load(y, p + 8, 8);
  cblas_dcopy(3, x, 2, y, -3);
  return reduce(y, 8) + reduce(x, 8);
}

static double obj_nrm2(const double *p) {
  double x[8];
  load(x, p, 8);
  double r = cblas_dnrm2(4, x, -2);
  return r * r * r + sin(r);
}

static double obj_asum(const double *p) {
  double x[8];
  load(x, p, 8);
  double r = cblas_dasum(3, x, 3);
  return r * r + 0.5 * r;
}

/*--- level 2: gemv (A M x N stored with LD), ger ---------------------------*/

#define GEMV_OBJ(name, layout, trans)                                          \
  static double name(const double *p) {                                      \
    double A[BUF], x[8], y[8];                                                 \
    load_axy(A, x, y, p);                                                      \
    cblas_dgemv(layout, trans, M, N, p[BUF + 16], A, LD, x, -2, p[BUF + 17],   \
                y, 2);                                                         \
    return reduce(y, 8);                                                       \
  }
GEMV_OBJ(gemv_cn, CblasColMajor, CblasNoTrans)
GEMV_OBJ(gemv_ct, CblasColMajor, CblasTrans)
GEMV_OBJ(gemv_rn, CblasRowMajor, CblasNoTrans)
GEMV_OBJ(gemv_rt, CblasRowMajor, CblasConjTrans)

/* symv: the other triangle of A holds values the call must not read */
#define SYMV_OBJ(name, layout, uplo)                                           \
  static double name(const double *p) {                                      \
    double A[BUF], x[8], y[8];                                                 \
    load_axy(A, x, y, p);                                                      \
    cblas_dsymv(layout, uplo, K, p[BUF + 16], A, LD, x, 2, p[BUF + 17], y,     \
                -2);                                                           \
    return reduce(y, 8);                                                       \
  }
SYMV_OBJ(symv_cu, CblasColMajor, CblasUpper)
SYMV_OBJ(symv_cl, CblasColMajor, CblasLower)
SYMV_OBJ(symv_ru, CblasRowMajor, CblasUpper)
SYMV_OBJ(symv_rl, CblasRowMajor, CblasLower)

#define GER_OBJ(name, layout)                                                  \
  static double name(const double *p) {                                      \
    double A[BUF], x[8], y[8];                                                 \
    load_axy(A, x, y, p);                                                      \
    cblas_dger(layout, M, N, p[BUF + 16], x, 2, y, -3, A, LD);                 \
    return reduce(A, BUF);                                                     \
  }
GER_OBJ(ger_c, CblasColMajor)
GER_OBJ(ger_r, CblasRowMajor)

/*--- level 3: gemm (C M x N, op(A) M x K, op(B) K x N, all with LD) --------*/

#define GEMM_OBJ(name, layout, ta, tb)                                         \
  static double name(const double *p) {                                      \
    double A[BUF], B[BUF], C[BUF];                                             \
    load(A, p, BUF);                                                           \
    load(B, p + BUF, BUF);                                                     \
    load(C, p + 2 * BUF, BUF);                                                 \
    cblas_dgemm(layout, ta, tb, M, N, K, p[3 * BUF], A, LD, B, LD,             \
                p[3 * BUF + 1], C, LD);                                        \
    double later = reduce(A, BUF);                                             \
    A[0] = C[1]; /* (A overwritten after the call) */                          \
    return reduce(C, BUF) + 0.1 * later + A[0];                                \
  }
GEMM_OBJ(gemm_cnn, CblasColMajor, CblasNoTrans, CblasNoTrans)
GEMM_OBJ(gemm_cnt, CblasColMajor, CblasNoTrans, CblasTrans)
GEMM_OBJ(gemm_ctn, CblasColMajor, CblasTrans, CblasNoTrans)
GEMM_OBJ(gemm_ctt, CblasColMajor, CblasTrans, CblasTrans)
GEMM_OBJ(gemm_rnn, CblasRowMajor, CblasNoTrans, CblasNoTrans)
GEMM_OBJ(gemm_rnt, CblasRowMajor, CblasNoTrans, CblasTrans)
GEMM_OBJ(gemm_rtn, CblasRowMajor, CblasTrans, CblasNoTrans)
GEMM_OBJ(gemm_rtt, CblasRowMajor, CblasTrans, CblasTrans)

/* syrk: C (M x M) on one triangle; op(A) M x K */
#define SYRK_OBJ(name, layout, uplo, trans)                                    \
  static double name(const double *p) {                                      \
    double A[BUF], C[BUF];                                                     \
    load(A, p, BUF);                                                           \
    load(C, p + BUF, BUF);                                                     \
    cblas_dsyrk(layout, uplo, trans, M, K, p[2 * BUF], A, LD, p[2 * BUF + 1],  \
                C, LD);                                                        \
    return reduce(C, BUF);                                                     \
  }
SYRK_OBJ(syrk_cun, CblasColMajor, CblasUpper, CblasNoTrans)
SYRK_OBJ(syrk_clt, CblasColMajor, CblasLower, CblasTrans)
SYRK_OBJ(syrk_rut, CblasRowMajor, CblasUpper, CblasTrans)
SYRK_OBJ(syrk_rln, CblasRowMajor, CblasLower, CblasNoTrans)

/* trsv: x = op(T)^-1 x, T one triangle of A (M x M), its diagonal moved
 * away from 0 (or unit, then unread) */
#define TRSV_OBJ(name, layout, uplo, trans, diag)                              \
  static double name(const double *p) {                                      \
    double A[BUF], x[8];                                                       \
    load(A, p, BUF);                                                           \
    load(x, p + BUF, 8);                                                       \
    for (int i = 0; i < M; ++i)                                                \
      A[i * LD + i] += 3;                                                      \
    cblas_dtrsv(layout, uplo, trans, diag, M, A, LD, x, -2);                   \
    return reduce(x, 8);                                                       \
  }
TRSV_OBJ(trsv_cun, CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit)
TRSV_OBJ(trsv_clt, CblasColMajor, CblasLower, CblasTrans, CblasUnit)
TRSV_OBJ(trsv_rut, CblasRowMajor, CblasUpper, CblasTrans, CblasNonUnit)
TRSV_OBJ(trsv_rln, CblasRowMajor, CblasLower, CblasNoTrans, CblasUnit)

/*--- constant operands -----------------------------------------------------*/

/* B constant, beta 0 (C is not read: its adjoint is 0) */
static double gemm_const(const double *p, const double *B) {
  double A[BUF], C[BUF];
  load(A, p, BUF);
  for (int i = 0; i < BUF; ++i)
    C[i] = 0;
  cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, M, N, K, p[BUF], A, LD,
              B, LD, 0.0, C, LD);
  return reduce(C, BUF);
}

static double const_B[BUF];
static double gemm_const_fd(const double *p) { return gemm_const(p, const_B); }

static void check_const(void) {
  double p[BUF + 1], g[BUF + 1] = {0}, v[BUF + 1];
  for (int i = 0; i < BUF; ++i)
    const_B[i] = rev_rand();
  for (int i = 0; i <= BUF; ++i)
    p[i] = rev_rand();
  __enzyme_autodiff((void *)gemm_const, enzyme_dup, p, g, enzyme_const,
                    const_B);
  CHECK_GRAD(gemm_const_fd, p, BUF + 1, g, NULL);
  double dir = rev_dir(g, v, BUF + 1);
  CHECK_CLOSE(dir,
              __enzyme_fwddiff((void *)gemm_const, enzyme_dup, p, v,
                               enzyme_const, const_B),
              REV_TOL_DOT);
}

/*--- operands the reverse reads again --------------------------------------*/

/* Restrict arguments the function never writes: the reverse reads them
 * where the caller keeps them (no copies), with their own leading
 * dimensions and increments, also where a row-major call trades A and B,
 * x and y. */
static double stable_ops(const double *restrict A, const double *restrict B,
                         const double *restrict x, const double *restrict y) {
  double C[BUF], W[BUF], z[8];
  for (int i = 0; i < BUF; ++i) {
    C[i] = 0.1 * i;
    W[i] = 0.05 * i - 0.3;
  }
  for (int i = 0; i < 8; ++i)
    z[i] = 0.2 * i;
  cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, M, N, K, 1.3, A, LD, B,
              LD, 0.7, C, LD);
  cblas_dgemv(CblasColMajor, CblasTrans, M, N, 0.9, A, LD, x, -2, 0.4, z, 1);
  cblas_dsymv(CblasRowMajor, CblasLower, M, 0.8, B, LD, y, 1, 1.2, z, -1);
  cblas_dger(CblasRowMajor, M, N, 1.1, x, 2, y, -1, W, LD);
  double d = cblas_ddot(3, x, -2, y, 3);
  double r = cblas_dnrm2(3, y, 2) + cblas_dasum(3, x, 1);
  cblas_daxpy(3, 0.6, y, -2, z, 1);
  return reduce(C, BUF) + reduce(z, 8) + reduce(W, BUF) + d * d + r * r;
}

static double stable_fd(const double *p) {
  return stable_ops(p, p + BUF, p + 2 * BUF, p + 2 * BUF + 8);
}

static void check_stable(void) {
  enum { NP = 2 * BUF + 16 };
  double p[NP], g[NP] = {0}, v[NP];
  for (int i = 0; i < NP; ++i)
    p[i] = rev_rand();
  __enzyme_autodiff((void *)stable_ops, enzyme_dup, p, g, enzyme_dup, p + BUF,
                    g + BUF, enzyme_dup, p + 2 * BUF, g + 2 * BUF, enzyme_dup,
                    p + 2 * BUF + 8, g + 2 * BUF + 8);
  CHECK_GRAD(stable_fd, p, NP, g, NULL);
  double dir = rev_dir(g, v, NP);
  CHECK_CLOSE(__enzyme_fwddiff((void *)stable_ops, enzyme_dup, p, v,
                               enzyme_dup, p + BUF, v + BUF, enzyme_dup,
                               p + 2 * BUF, v + 2 * BUF, enzyme_dup,
                               p + 2 * BUF + 8, v + 2 * BUF + 8),
              dir, REV_TOL_DOT);
}

/* a dot product with a scalar result returned to the caller's adjoint */
static double scaled_dot(double a, const double *x, const double *y) {
  return a * cblas_ddot(4, x, 1, y, 1);
}

static void check_out(void) {
  double x[4] = {1, 2, 3, 4}, y[4] = {0.5, -1, 2, 0.25}, dx[4] = {0};
  double da = __enzyme_autodiff((void *)scaled_dot, 1.5, x, dx, enzyme_const,
                                y);
  CHECK_CLOSE(da, 0.5 - 2 + 6 + 1, 1e-12);
  for (int i = 0; i < 4; ++i)
    CHECK_CLOSE(dx[i], 1.5 * y[i], 1e-12);
}

int main(void) {
  CHECK_GRAD_AND_DOT(obj_dot, 16, 1.0);
  CHECK_GRAD_AND_DOT(obj_axpy, 17, 1.0);
  CHECK_GRAD_AND_DOT(obj_scal, 9, 1.0);
  CHECK_GRAD_AND_DOT(obj_copy, 16, 1.0);
  CHECK_GRAD_AND_DOT(obj_nrm2, 8, 1.0);
  CHECK_GRAD_AND_DOT(obj_asum, 8, 1.0);
  CHECK_GRAD_AND_DOT(gemv_cn, BUF + 18, 1.0);
  CHECK_GRAD_AND_DOT(gemv_ct, BUF + 18, 1.0);
  CHECK_GRAD_AND_DOT(gemv_rn, BUF + 18, 1.0);
  CHECK_GRAD_AND_DOT(gemv_rt, BUF + 18, 1.0);
  CHECK_GRAD_AND_DOT(symv_cu, BUF + 18, 1.0);
  CHECK_GRAD_AND_DOT(symv_cl, BUF + 18, 1.0);
  CHECK_GRAD_AND_DOT(symv_ru, BUF + 18, 1.0);
  CHECK_GRAD_AND_DOT(symv_rl, BUF + 18, 1.0);
  CHECK_GRAD_AND_DOT(ger_c, BUF + 17, 1.0);
  CHECK_GRAD_AND_DOT(ger_r, BUF + 17, 1.0);
  CHECK_GRAD_AND_DOT(gemm_cnn, 3 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(gemm_cnt, 3 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(gemm_ctn, 3 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(gemm_ctt, 3 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(gemm_rnn, 3 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(gemm_rnt, 3 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(gemm_rtn, 3 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(gemm_rtt, 3 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(syrk_cun, 2 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(syrk_clt, 2 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(syrk_rut, 2 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(syrk_rln, 2 * BUF + 2, 1.0);
  CHECK_GRAD_AND_DOT(trsv_cun, BUF + 8, 1.0);
  CHECK_GRAD_AND_DOT(trsv_clt, BUF + 8, 1.0);
  CHECK_GRAD_AND_DOT(trsv_rut, BUF + 8, 1.0);
  CHECK_GRAD_AND_DOT(trsv_rln, BUF + 8, 1.0);
  check_const();
  check_stable();
  check_out();
  return check_finish();
}
