/* Idiom corpus, numerical C in the style of the classic recipe books:
 * 1-based vectors made by offsetting a malloc'd pointer (`v - 1`, freed
 * through `v + 1`), matrices as tables of row pointers into one block
 * (`double **m` with m[1..n][1..n]), a SWAP macro with a temporary, LU
 * decomposition with partial pivoting and an int permutation table then
 * forward and back substitution, Gauss-Jordan inversion, a tridiagonal
 * solve, a natural cubic spline (second derivatives solved, then
 * evaluated between the knots found by bisection), Romberg integration of
 * a function through a pointer in a struct, and allocation wrappers
 * (posix_memalign's out-parameter, a block behind a length header, calloc
 * behind a null check). Both modes, central differences
 * (probe_check.h). */
#include "probe_check.h"

#include <stdlib.h>

#define SWAP(a, b)                                                             \
  do {                                                                         \
    double swap_tmp_ = (a);                                                    \
    (a) = (b);                                                                 \
    (b) = swap_tmp_;                                                           \
  } while (0)

static double *vector1(int nl, int nh) {
  double *v = (double *)malloc((size_t)(nh - nl + 1) * sizeof(double));
  return v - nl;
}
static void free_vector1(double *v, int nl) { free(v + nl); }
static int *ivector1(int nl, int nh) {
  int *v = (int *)malloc((size_t)(nh - nl + 1) * sizeof(int));
  return v - nl;
}
static void free_ivector1(int *v, int nl) { free(v + nl); }

/* m[1..n][1..n]: a table of row pointers into one block */
static double **matrix1(int n) {
  double **m = (double **)malloc((size_t)n * sizeof(double *)) - 1;
  m[1] = (double *)malloc((size_t)n * n * sizeof(double)) - 1;
  for (int i = 2; i <= n; ++i)
    m[i] = m[i - 1] + n;
  return m;
}
static void free_matrix1(double **m) {
  free(m[1] + 1);
  free(m + 1);
}

/* LU decomposition with partial pivoting, in place; indx records rows */
static void ludcmp(double **a, int n, int *indx, double *d) {
  double *vv = vector1(1, n);
  *d = 1.0;
  for (int i = 1; i <= n; ++i) {
    double big = 0.0;
    for (int j = 1; j <= n; ++j)
      if (fabs(a[i][j]) > big)
        big = fabs(a[i][j]);
    vv[i] = 1.0 / big;
  }
  for (int j = 1; j <= n; ++j) {
    for (int i = 1; i < j; ++i) {
      double sum = a[i][j];
      for (int k = 1; k < i; ++k)
        sum -= a[i][k] * a[k][j];
      a[i][j] = sum;
    }
    double big = 0.0;
    int imax = j;
    for (int i = j; i <= n; ++i) {
      double sum = a[i][j];
      for (int k = 1; k < j; ++k)
        sum -= a[i][k] * a[k][j];
      a[i][j] = sum;
      double dum = vv[i] * fabs(sum);
      if (dum >= big) {
        big = dum;
        imax = i;
      }
    }
    if (j != imax) {
      for (int k = 1; k <= n; ++k)
        SWAP(a[imax][k], a[j][k]);
      *d = -*d;
      vv[imax] = vv[j];
    }
    indx[j] = imax;
    double dum = 1.0 / a[j][j];
    for (int i = j + 1; i <= n; ++i)
      a[i][j] *= dum;
  }
  free_vector1(vv, 1);
}
static void lubksb(double **a, int n, const int *indx, double *b) {
  int ii = 0;
  for (int i = 1; i <= n; ++i) {
    int ip = indx[i];
    double sum = b[ip];
    b[ip] = b[i];
    if (ii)
      for (int j = ii; j < i; ++j)
        sum -= a[i][j] * b[j];
    else if (sum != 0.0)
      ii = i;
    b[i] = sum;
  }
  for (int i = n; i >= 1; --i) {
    double sum = b[i];
    for (int j = i + 1; j <= n; ++j)
      sum -= a[i][j] * b[j];
    b[i] = sum / a[i][i];
  }
}

/* x solves A x = b (A from x[0..8], b from x[9..11]); the result weighs
 * the solution and the determinant */
static double f_lu(const double *x) {
  const int n = 3;
  double **a = matrix1(n);
  double *b = vector1(1, n), d;
  int *indx = ivector1(1, n);
  for (int i = 1; i <= n; ++i) {
    for (int j = 1; j <= n; ++j)
      a[i][j] = x[(i - 1) * n + (j - 1)];
    b[i] = x[9 + i - 1];
  }
  ludcmp(a, n, indx, &d);
  for (int j = 1; j <= n; ++j)
    d *= a[j][j];
  lubksb(a, n, indx, b);
  double r = b[1] + 2 * b[2] * b[2] - b[3] + 0.1 * d;
  free_ivector1(indx, 1);
  free_vector1(b, 1);
  free_matrix1(a);
  return r;
}

/* Gauss-Jordan inversion with full pivoting, in place */
static void gaussj(double **a, int n) {
  int *indxc = ivector1(1, n), *indxr = ivector1(1, n), *ipiv = ivector1(1, n);
  int irow = 0, icol = 0;
  for (int j = 1; j <= n; ++j)
    ipiv[j] = 0;
  for (int i = 1; i <= n; ++i) {
    double big = 0.0;
    for (int j = 1; j <= n; ++j)
      if (ipiv[j] != 1)
        for (int k = 1; k <= n; ++k)
          if (ipiv[k] == 0 && fabs(a[j][k]) >= big) {
            big = fabs(a[j][k]);
            irow = j;
            icol = k;
          }
    ++ipiv[icol];
    if (irow != icol)
      for (int l = 1; l <= n; ++l)
        SWAP(a[irow][l], a[icol][l]);
    indxr[i] = irow;
    indxc[i] = icol;
    double pivinv = 1.0 / a[icol][icol];
    a[icol][icol] = 1.0;
    for (int l = 1; l <= n; ++l)
      a[icol][l] *= pivinv;
    for (int ll = 1; ll <= n; ++ll)
      if (ll != icol) {
        double dum = a[ll][icol];
        a[ll][icol] = 0.0;
        for (int l = 1; l <= n; ++l)
          a[ll][l] -= a[icol][l] * dum;
      }
  }
  for (int l = n; l >= 1; --l)
    if (indxr[l] != indxc[l])
      for (int k = 1; k <= n; ++k)
        SWAP(a[k][indxr[l]], a[k][indxc[l]]);
  free_ivector1(ipiv, 1);
  free_ivector1(indxr, 1);
  free_ivector1(indxc, 1);
}
static double f_gaussj(const double *x) {
  const int n = 3;
  double **a = matrix1(n);
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      a[i][j] = x[(i - 1) * n + (j - 1)];
  gaussj(a, n);
  double r = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      r += (i + 2 * j) * a[i][j];
  free_matrix1(a);
  return r;
}

/* tridiagonal system: sub-diagonal a, diagonal b, super-diagonal c */
static void tridag(const double *a, const double *b, const double *c,
                   const double *r, double *u, int n) {
  double *gam = vector1(1, n), bet = b[1];
  u[1] = r[1] / bet;
  for (int j = 2; j <= n; ++j) {
    gam[j] = c[j - 1] / bet;
    bet = b[j] - a[j] * gam[j];
    u[j] = (r[j] - a[j] * u[j - 1]) / bet;
  }
  for (int j = n - 1; j >= 1; --j)
    u[j] -= gam[j + 1] * u[j + 1];
  free_vector1(gam, 1);
}

/* a natural cubic spline through (xa[i], ya[i]): its second derivatives */
static void spline(const double *xa, const double *ya, int n, double *y2) {
  double *a = vector1(1, n), *b = vector1(1, n), *c = vector1(1, n),
         *r = vector1(1, n);
  a[1] = c[1] = 0;
  b[1] = 1;
  r[1] = 0;
  a[n] = c[n] = 0;
  b[n] = 1;
  r[n] = 0;
  for (int i = 2; i < n; ++i) {
    a[i] = (xa[i] - xa[i - 1]) / 6;
    b[i] = (xa[i + 1] - xa[i - 1]) / 3;
    c[i] = (xa[i + 1] - xa[i]) / 6;
    r[i] = (ya[i + 1] - ya[i]) / (xa[i + 1] - xa[i]) -
           (ya[i] - ya[i - 1]) / (xa[i] - xa[i - 1]);
  }
  tridag(a, b, c, r, y2, n);
  free_vector1(r, 1);
  free_vector1(c, 1);
  free_vector1(b, 1);
  free_vector1(a, 1);
}
static double splint(const double *xa, const double *ya, const double *y2,
                     int n, double x) {
  int klo = 1, khi = n;
  while (khi - klo > 1) {
    int k = (khi + klo) >> 1;
    if (xa[k] > x)
      khi = k;
    else
      klo = k;
  }
  double h = xa[khi] - xa[klo];
  double a = (xa[khi] - x) / h, b = (x - xa[klo]) / h;
  return a * ya[klo] + b * ya[khi] +
         ((a * a * a - a) * y2[klo] + (b * b * b - b) * y2[khi]) * (h * h) / 6;
}
/* knots at fixed abscissae (x[5] stretches the last one), values x[0..4],
 * the spline evaluated at two points that x[6] moves */
static double f_spline(const double *x) {
  const int n = 5;
  double *xa = vector1(1, n), *ya = vector1(1, n), *y2 = vector1(1, n);
  for (int i = 1; i <= n; ++i) {
    xa[i] = i - 1;
    ya[i] = x[i - 1];
  }
  xa[n] += x[5];
  spline(xa, ya, n, y2);
  double r = splint(xa, ya, y2, n, 1.3 + x[6]) +
             2 * splint(xa, ya, y2, n, 3.1 - x[6]);
  free_vector1(y2, 1);
  free_vector1(ya, 1);
  free_vector1(xa, 1);
  return r;
}

/* Romberg integration of f over [a, b] (trapezoids refined, then
 * Richardson extrapolation in a 1-based table) */
struct integrand {
  double (*f)(const struct integrand *, double);
  double k, w;
};
static double damped(const struct integrand *p, double t) {
  return exp(-p->k * t) * cos(p->w * t);
}
static double romberg(const struct integrand *p, double a, double b) {
  double r[8][8];
  double h = b - a;
  r[1][1] = 0.5 * h * (p->f(p, a) + p->f(p, b));
  for (int i = 2; i <= 7; ++i) {
    h *= 0.5;
    double s = 0;
    for (int k = 1; k <= (1 << (i - 2)); ++k)
      s += p->f(p, a + (2 * k - 1) * h);
    r[i][1] = 0.5 * r[i - 1][1] + h * s;
    double f4 = 1;
    for (int j = 2; j <= i; ++j) {
      f4 *= 4;
      r[i][j] = r[i][j - 1] + (r[i][j - 1] - r[i - 1][j - 1]) / (f4 - 1);
    }
  }
  return r[7][7];
}
static double f_romberg(const double *x) {
  struct integrand p = {damped, x[0], x[1]};
  return romberg(&p, 0.0, 1.0 + x[2]);
}

/* other allocation wrappers: an aligned block through posix_memalign's
 * out-parameter, a block behind a header that records its length (the
 * wrapper returns the address after it), calloc behind a null check */
static double *aligned_vec(int n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, (size_t)n * sizeof(double)) != 0)
    return NULL;
  return (double *)p;
}
static double *header_vec(int n) {
  size_t *h = (size_t *)malloc(2 * sizeof(size_t) + (size_t)n * sizeof(double));
  h[0] = (size_t)n;
  return (double *)(h + 2);
}
static void header_free(double *v) { free((size_t *)v - 2); }
static double *zeroed_vec(int n) {
  double *v = (double *)calloc((size_t)n, sizeof(double));
  return v ? v : NULL;
}
static double f_wrappers(const double *x) {
  double *a = aligned_vec(3), *b = header_vec(3), *c = zeroed_vec(3);
  for (int i = 0; i < 3; ++i) {
    a[i] = x[i] * x[i];
    b[i] = a[i] * x[(i + 1) % 3];
    c[i] = sin(b[i]);
  }
  double r = a[0] + b[1] * c[2] + c[0] * a[2];
  free(a);
  header_free(b);
  free(c);
  return r;
}

int main(void) {
  PROBE(f_lu, 12, 2.0, 0.5, -0.3, 0.4, 1.5, 0.2, -0.6, 0.3, 1.8, 1.0, -0.5,
        0.25);
  PROBE(f_gaussj, 9, 0.4, 2.0, -0.3, 1.5, 0.5, 0.2, 0.3, -0.6, 1.8);
  PROBE(f_spline, 7, 0.5, 1.2, -0.3, 0.8, 0.1, 0.3, 0.05);
  PROBE(f_romberg, 3, 0.7, 2.5, 0.4);
  PROBE(f_wrappers, 3, 0.5, 1.2, -0.3);
  return check_finish();
}
