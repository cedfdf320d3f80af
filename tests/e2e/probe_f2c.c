/* Idiom corpus, C translated from Fortran (f2c's output, as netlib's C
 * libraries ship it) and Fortran habits kept in C: every argument by
 * pointer (`integer *n, doublereal *alpha`), parameter pointers moved back
 * so that indices start at 1 (`--x; a -= a_offset;`), column-major
 * matrices through a leading dimension, a COMMON block as a global struct
 * holding active data, a static work array shared by two routines,
 * labelled loops with goto, and recursion: adaptive Simpson integration
 * splitting its interval until the error estimate is small. Both modes,
 * central differences (probe_check.h). */
#include "probe_check.h"

typedef int integer;
typedef double doublereal;

/* y := alpha * A * x + y, A column-major n x n (a DGEMV-like routine as
 * f2c writes it) */
static int mv_(integer *n, doublereal *alpha, doublereal *a, integer *lda,
               doublereal *x, doublereal *y) {
  integer a_dim1, a_offset, i__1, i__2;
  static integer i__, j;
  static doublereal temp;
  a_dim1 = *lda;
  a_offset = 1 + a_dim1;
  a -= a_offset;
  --x;
  --y;
  i__1 = *n;
  for (j = 1; j <= i__1; ++j) {
    temp = *alpha * x[j];
    i__2 = *n;
    for (i__ = 1; i__ <= i__2; ++i__)
      y[i__] += temp * a[i__ + j * a_dim1];
  }
  return 0;
}

/* dot product with a stride, the loop written with labels */
static doublereal ddot_(integer *n, doublereal *dx, integer *incx) {
  doublereal ret_val = 0.;
  integer i__, ix;
  --dx;
  if (*n <= 0)
    return ret_val;
  ix = 1;
  i__ = 1;
L10:
  ret_val += dx[ix] * dx[ix];
  ix += *incx;
  if (++i__ <= *n)
    goto L10;
  return ret_val;
}

/* COMMON /coeffs/ c(4), scale */
struct {
  doublereal c[4];
  doublereal scale;
} coeffs_;

/* static work array of the "library", written by one routine, read by the
 * other */
static doublereal work[16];

static int setup_(integer *n, doublereal *x) {
  integer i__;
  --x;
  for (i__ = 1; i__ <= *n; ++i__)
    work[i__ - 1] = x[i__] * coeffs_.c[(i__ - 1) % 4];
  return 0;
}
static doublereal combine_(integer *n) {
  doublereal s = 0.;
  integer i__;
  for (i__ = 1; i__ <= *n; ++i__)
    s += work[i__ - 1] * work[*n - i__];
  return s * coeffs_.scale;
}

static double f_f2c(const double *x) {
  doublereal a[9], xv[3], y[3];
  integer n = 3, lda = 3, inc = 1;
  doublereal alpha = x[9];
  for (int k = 0; k < 9; ++k)
    a[k] = x[k];
  for (int k = 0; k < 3; ++k) {
    xv[k] = 1.0 + 0.5 * k;
    y[k] = 0.25 * k;
  }
  mv_(&n, &alpha, a, &lda, xv, y);
  return ddot_(&n, y, &inc);
}

static double f_common(const double *x) {
  for (int k = 0; k < 4; ++k)
    coeffs_.c[k] = x[k];
  coeffs_.scale = x[4];
  doublereal v[6];
  for (int k = 0; k < 6; ++k)
    v[k] = x[(k + 1) % 6] + 0.1 * k;
  integer n = 6;
  setup_(&n, v);
  return combine_(&n);
}

/* adaptive Simpson: recursion until the estimate settles */
struct params {
  double a, b;
};
static double g(const struct params *p, double t) {
  return exp(-p->a * t * t) * (1 + p->b * t);
}
static double simpson(const struct params *p, double l, double r, double fl,
                      double fm, double fr) {
  return (r - l) / 6 * (fl + 4 * fm + fr);
}
static double adapt(const struct params *p, double l, double r, double fl,
                    double fm, double fr, double whole, double eps,
                    int depth) {
  double m = 0.5 * (l + r), lm = 0.5 * (l + m), rm = 0.5 * (m + r);
  double flm = g(p, lm), frm = g(p, rm);
  double left = simpson(p, l, m, fl, flm, fm),
         right = simpson(p, m, r, fm, frm, fr);
  double delta = left + right - whole;
  if (depth <= 0 || fabs(delta) <= 15 * eps)
    return left + right + delta / 15;
  return adapt(p, l, m, fl, flm, fm, left, eps / 2, depth - 1) +
         adapt(p, m, r, fm, frm, fr, right, eps / 2, depth - 1);
}
static double f_adaptive(const double *x) {
  struct params p = {x[0], x[1]};
  double l = 0, r = 1 + x[2];
  double fl = g(&p, l), fr = g(&p, r), fm = g(&p, 0.5 * (l + r));
  return adapt(&p, l, r, fl, fm, fr, simpson(&p, l, r, fl, fm, fr), 1e-9, 12);
}

int main(void) {
  PROBE(f_f2c, 10, 0.4, 2.0, -0.3, 1.5, 0.5, 0.2, 0.3, -0.6, 1.8, 0.7);
  PROBE(f_common, 6, 0.4, 2.0, -0.3, 1.5, 0.5, 0.2);
  PROBE(f_adaptive, 3, 0.7, 0.4, 0.3);
  return check_finish();
}
