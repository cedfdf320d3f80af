/* Derivatives through Fortran BLAS calls (docs/rules.md#blas): every
 * argument by pointer, column-major, 'N'/'T' characters, scalars (alpha,
 * beta) that are the program's variables. The double routines against
 * central differences and forward mode; the float routines (s*_) against
 * the double ones and forward mode. dgemm_ is declared with the hidden
 * lengths of its character arguments, as gfortran passes them. */
#include "rev_check.h"

#include <stddef.h>

#define FORTRAN_BLAS(T, P)                                                     \
  T P##dot_(const int *n, const T *x, const int *incx, const T *y,             \
            const int *incy);                                                  \
  void P##axpy_(const int *n, const T *a, const T *x, const int *incx, T *y,   \
                const int *incy);                                              \
  void P##scal_(const int *n, const T *a, T *x, const int *incx);              \
  void P##copy_(const int *n, const T *x, const int *incx, T *y,               \
                const int *incy);                                              \
  T P##nrm2_(const int *n, const T *x, const int *incx);                       \
  T P##asum_(const int *n, const T *x, const int *incx);                       \
  void P##gemv_(const char *t, const int *m, const int *n, const T *alpha,     \
                const T *a, const int *lda, const T *x, const int *incx,       \
                const T *beta, T *y, const int *incy);                         \
  void P##symv_(const char *uplo, const int *n, const T *alpha, const T *a,   \
                const int *lda, const T *x, const int *incx, const T *beta,    \
                T *y, const int *incy);                                        \
  void P##syrk_(const char *uplo, const char *t, const int *n, const int *k,  \
                const T *alpha, const T *a, const int *lda, const T *beta,     \
                T *c, const int *ldc);                                         \
  void P##trsv_(const char *uplo, const char *t, const char *diag,            \
                const int *n, const T *a, const int *lda, T *x,                \
                const int *incx);                                              \
  void P##ger_(const int *m, const int *n, const T *alpha, const T *x,         \
               const int *incx, const T *y, const int *incy, T *a,             \
               const int *lda);
FORTRAN_BLAS(double, d)
FORTRAN_BLAS(float, s)
void dgemm_(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const double *alpha, const double *a,
            const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc, size_t ta_len,
            size_t tb_len);
void sgemm_(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const float *alpha, const float *a, const int *lda,
            const float *b, const int *ldb, const float *beta, float *c,
            const int *ldc);

enum { BUF = 20 };

/* The objectives, once per element type: parameters in double, operands
 * of type T, a nonlinear sum of every output element. */
#define OBJECTIVES(T, P, GEMM_LENGTHS)                                         \
  static double P##reduce(const T *v, int n) {                                 \
    double s = 0;                                                              \
    for (int i = 0; i < n; ++i)                                                \
      s += (0.3 + 0.1 * i) * v[i] + 0.5 * v[i] * v[i];                         \
    return s;                                                                  \
  }                                                                            \
  static void P##load(T *to, const double *p, int n) {                         \
    for (int i = 0; i < n; ++i)                                                \
      to[i] = (T)p[i];                                                         \
  }                                                                            \
  static double P##level1(const double *p) {                                   \
    T x[8], y[8], a = (T)p[16];                                                \
    P##load(x, p, 8);                                                          \
    P##load(y, p + 8, 8);                                                      \
    int n = 3, two = 2, minus2 = -2, three = 3;                                \
    T d = P##dot_(&n, x, &two, y, &minus2);                                    \
    P##axpy_(&n, &a, x, &minus2, y, &three);                                   \
    T r = P##nrm2_(&n, y, &minus2);                                            \
    P##scal_(&n, &a, x, &three);                                               \
    T s = P##asum_(&n, x, &two);                                               \
    P##copy_(&n, y, &three, x, &minus2);                                       \
    return d * r + s * s + P##reduce(x, 8) + P##reduce(y, 8);                  \
  }                                                                            \
  static double P##level2(const double *p) {                                   \
    T A[BUF], x[8], y[8], alpha = (T)p[36], beta = (T)p[37];                   \
    P##load(A, p, BUF);                                                        \
    P##load(x, p + BUF, 8);                                                    \
    P##load(y, p + BUF + 8, 8);                                                \
    int m = 3, n = 4, ld = 5, one = 1, minus2 = -2;                            \
    P##gemv_("N", &m, &n, &alpha, A, &ld, x, &minus2, &beta, y, &one);         \
    P##gemv_("T", &m, &n, &beta, A, &ld, y, &one, &alpha, x, &minus2);         \
    P##ger_(&m, &n, &alpha, y, &one, x, &minus2, A, &ld);                      \
    P##symv_("u", &n, &alpha, A, &ld, x, &minus2, &beta, y + 2, &one);         \
    P##symv_("L", &m, &beta, A + 1, &ld, y, &one, &alpha, x, &minus2);         \
    for (int i = 0; i < m; ++i)                                                \
      A[i * ld + i] += 3;                                                      \
    P##trsv_("U", "t", "n", &m, A, &ld, y, &one);                              \
    P##trsv_("l", "N", "u", &m, A + 5, &ld, x, &minus2);                       \
    return P##reduce(A, BUF) + P##reduce(x, 8) + P##reduce(y, 8);              \
  }                                                                            \
  static double P##level3(const double *p) {                                   \
    T A[BUF], B[BUF], C[BUF], alpha = (T)p[60], beta = (T)p[61];               \
    P##load(A, p, BUF);                                                        \
    P##load(B, p + BUF, BUF);                                                  \
    P##load(C, p + 2 * BUF, BUF);                                              \
    int m = 3, n = 2, k = 4, ld = 5;                                           \
    P##gemm_("T", "N", &m, &n, &k, &alpha, A, &ld, B, &ld, &beta, C,           \
             &ld GEMM_LENGTHS);                                                \
    P##gemm_("n", "t", &k, &m, &n, &beta, B, &ld, C, &ld, &alpha, A,           \
             &ld GEMM_LENGTHS);                                                \
    P##syrk_("L", "T", &n, &k, &alpha, B, &ld, &beta, C, &ld);                 \
    P##syrk_("u", "n", &m, &n, &beta, C + 1, &ld, &alpha, A, &ld);             \
    return P##reduce(A, BUF) + P##reduce(C, BUF);                              \
  }
#define COMMA_LENGTHS , 1, 1
OBJECTIVES(double, d, COMMA_LENGTHS)
OBJECTIVES(float, s, )

/* The float gradient against the double one (relative 1e-4), and along a
 * random direction against float forward mode. (A macro: the
 * differentiated functions must be known where they are asked for.) */
#define CHECK_FLOAT(fd, ff, n)                                                 \
  do {                                                                         \
    double p_[64], gd_[64] = {0}, gf_[64] = {0}, v_[64];                       \
    for (int i_ = 0; i_ < (n); ++i_)                                           \
      p_[i_] = rev_rand();                                                     \
    __enzyme_autodiff((void *)fd, p_, gd_);                                    \
    __enzyme_autodiff((void *)ff, p_, gf_);                                    \
    for (int i_ = 0; i_ < (n); ++i_)                                           \
      if (!rev_close(gf_[i_], gd_[i_], 1e-4))                                  \
        rev_fail(__FILE__, __LINE__, #ff, i_, gf_[i_], gd_[i_]);               \
    double dir_ = rev_dir(gf_, v_, (n));                                       \
    CHECK_CLOSE(__enzyme_fwddiff((void *)ff, p_, v_), dir_, 1e-4);             \
  } while (0)

int main(void) {
  CHECK_GRAD_AND_DOT(dlevel1, 17, 1.0);
  CHECK_GRAD_AND_DOT(dlevel2, BUF + 18, 1.0);
  CHECK_GRAD_AND_DOT(dlevel3, 3 * BUF + 2, 1.0);
  CHECK_FLOAT(dlevel1, slevel1, 17);
  CHECK_FLOAT(dlevel2, slevel2, BUF + 18);
  CHECK_FLOAT(dlevel3, slevel3, 3 * BUF + 2);
  return check_finish();
}
