/* BLAS calls in split mode (__enzyme_augmentfwd, then __enzyme_reverse
 * after the program overwrote the operands): the record holds what the
 * reverse reads. Linked without -lm (a BLAS program need not link libm:
 * the rules' square roots are instructions); ctest e2e.blas_split-*. */
#include "check.h"

#include <cblas.h>

extern int enzyme_dup, enzyme_const;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

/* y = A x (2 x 3, row-major); r = ||y||, returned through *r */
static void f(const double *A, const double *x, double *y, double *r) {
  cblas_dgemv(CblasRowMajor, CblasNoTrans, 2, 3, 1.0, A, 3, x, 1, 0.0, y, 1);
  *r = cblas_dnrm2(2, y, 1);
}

int main(void) {
  double A[6] = {1, 2, 3, 4, 5, 6}, x[3] = {1, -1, 2}, y[2], r;
  double dA[6] = {0}, dx[3] = {0}, dy[2] = {0}, dr = 1;
  void *tape = __enzyme_augmentfwd((void *)f, A, dA, x, dx, y, dy, &r, &dr);
  double y0 = y[0], y1 = y[1], norm = r;
  CHECK_CLOSE(norm * norm, 5 * 5 + 11 * 11, 1e-14);
  x[0] = 100; /* overwritten between the sweeps */
  A[0] = -7;
  y[1] = 3;
  __enzyme_reverse((void *)f, A, dA, x, dx, y, dy, &r, &dr, tape);
  /* ybar = y / r; xbar = A^T ybar; Abar = ybar x^T (at the recorded A, x) */
  double yb0 = y0 / norm, yb1 = y1 / norm;
  const double A0[6] = {1, 2, 3, 4, 5, 6}, x0[3] = {1, -1, 2};
  for (int j = 0; j < 3; ++j) {
    CHECK_CLOSE(dx[j], A0[j] * yb0 + A0[3 + j] * yb1, 1e-14);
    CHECK_CLOSE(dA[j], yb0 * x0[j], 1e-14);
    CHECK_CLOSE(dA[3 + j], yb1 * x0[j], 1e-14);
  }
  return check_finish();
}
