/* Derivatives through QDLDL (github.com/osqp/qdldl: the sparse LDL^T
 * factorization of quasi-definite matrices that OSQP uses), src/qdldl.c
 * compiled unchanged on its own, the derivatives of its functions made at
 * link time (or, with -DQDLDL_SOURCE="...", included into this file). What
 * the library does that the derivatives go through: an elimination tree of
 * integers (QDLDL_etree, run inside the differentiated function), the
 * factor's columns in CSC arrays whose row indices it writes while it
 * writes the values, one int workspace cut into three lists, a flag array
 * of unsigned chars, a double workspace zeroed and refilled each column,
 * triangular solves that scatter into x through the row indices.
 *
 * K is a small quasi-definite matrix [P A^T; A -R] (P positive definite,
 * R positive diagonal) built here from a seed, given to QDLDL as its upper
 * triangle in CSC form; its values Kx are one argument, b another. Checked,
 * for three matrices:
 *  1. the gradient of c.x, x = K^-1 b, with respect to Kx and b by reverse
 *     mode against the analytic values (y = K^-1 c; d/db = y, d/dK_ij =
 *     -(y_i x_j + y_j x_i) off the diagonal, -y_i x_i on it), central
 *     differences and forward mode;
 *  2. the full Jacobian of x by forward mode, one direction per value of K
 *     and of b, against dx = -K^-1 dK x and dx = K^-1 db;
 *  3. log|det K| = sum log|D_k| by reverse mode against its analytic
 *     gradient (K^-1: 2 (K^-1)_ij off the diagonal), forward mode and
 *     central differences.
 * Run by qdldl.sh. */
#include "qdldl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef QDLDL_SOURCE
#include QDLDL_SOURCE
#endif

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { NMAX = 16, NNZMAX = NMAX * (NMAX + 1) / 2 };

static int failures = 0, checks = 0;

static void check(const char *what, int i, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s [%d]: %.15g, expected %.15g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

/* The pattern of K's upper triangle in CSC form: constant for the
 * derivatives. Row and column of each value kept for the checks. */
struct pattern {
  QDLDL_int n, nnz;
  QDLDL_int Ap[NMAX + 1], Ai[NNZMAX];
  int col[NNZMAX];
  double c[NMAX]; /* the loss's weights */
};

/* Factor K (upper CSC values Kx) and solve K x = b; returns the number of
 * positive pivots (or -1) and, in logdet, sum log|D_k|. Everything QDLDL
 * needs is allocated here, as a program would. */
static QDLDL_int factor_solve(const struct pattern *pt, const QDLDL_float *Kx,
                              const QDLDL_float *b, QDLDL_float *x,
                              QDLDL_float *logdet) {
  QDLDL_int n = pt->n;
  QDLDL_int *etree = malloc(sizeof(QDLDL_int) * n);
  QDLDL_int *Lnz = malloc(sizeof(QDLDL_int) * n);
  QDLDL_int *iwork = malloc(sizeof(QDLDL_int) * 3 * n);
  QDLDL_bool *bwork = malloc(sizeof(QDLDL_bool) * n);
  QDLDL_float *fwork = malloc(sizeof(QDLDL_float) * n);
  QDLDL_float *D = malloc(sizeof(QDLDL_float) * n);
  QDLDL_float *Dinv = malloc(sizeof(QDLDL_float) * n);
  QDLDL_int *Lp = malloc(sizeof(QDLDL_int) * (n + 1));
  QDLDL_int sumLnz = QDLDL_etree(n, pt->Ap, pt->Ai, iwork, Lnz, etree);
  QDLDL_int npos = -1;
  if (sumLnz >= 0) {
    QDLDL_int *Li = malloc(sizeof(QDLDL_int) * (sumLnz + 1));
    QDLDL_float *Lx = malloc(sizeof(QDLDL_float) * (sumLnz + 1));
    npos = QDLDL_factor(n, pt->Ap, pt->Ai, Kx, Lp, Li, Lx, D, Dinv, Lnz,
                        etree, bwork, iwork, fwork);
    if (npos >= 0) {
      for (QDLDL_int i = 0; i < n; ++i)
        x[i] = b[i];
      QDLDL_solve(n, Lp, Li, Lx, Dinv, x);
      QDLDL_float s = 0;
      for (QDLDL_int i = 0; i < n; ++i)
        s += log(fabs(D[i]));
      *logdet = s;
    }
    free(Li);
    free(Lx);
  }
  free(etree);
  free(Lnz);
  free(iwork);
  free(bwork);
  free(fwork);
  free(D);
  free(Dinv);
  free(Lp);
  return npos;
}

/* c.x */
static double loss(const struct pattern *pt, const QDLDL_float *Kx,
                   const QDLDL_float *b) {
  QDLDL_float x[NMAX], logdet = 0;
  if (factor_solve(pt, Kx, b, x, &logdet) < 0)
    return NAN;
  double s = 0;
  for (QDLDL_int i = 0; i < pt->n; ++i)
    s += pt->c[i] * x[i];
  return s;
}

/* sum log|D_k| */
static double log_det(const struct pattern *pt, const QDLDL_float *Kx,
                      const QDLDL_float *b) {
  QDLDL_float x[NMAX], logdet = 0;
  if (factor_solve(pt, Kx, b, x, &logdet) < 0)
    return NAN;
  return logdet;
}

/* x itself, for the Jacobian by forward mode. */
static void solution(const struct pattern *pt, const QDLDL_float *Kx,
                     const QDLDL_float *b, QDLDL_float *x) {
  QDLDL_float logdet = 0;
  if (factor_solve(pt, Kx, b, x, &logdet) < 0)
    for (QDLDL_int i = 0; i < pt->n; ++i)
      x[i] = NAN;
}

typedef double (*objective)(const struct pattern *, const QDLDL_float *,
                            const QDLDL_float *);

/* A quasi-definite matrix: n1 rows of P (sparse, diagonally dominant),
 * n - n1 of the constraints A (sparse) and -R. A small generator so that
 * the seeds give other patterns. */
static unsigned long long rng_state;
static double uniform(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}

static void make_problem(unsigned seed, int n, int n1, double density,
                         struct pattern *pt, double dense[NMAX][NMAX],
                         QDLDL_float *Kx, QDLDL_float *b) {
  rng_state = seed;
  memset(dense, 0, sizeof(double) * NMAX * NMAX);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < j; ++i) {
      int inP = i < n1 && j < n1, inA = i < n1 && j >= n1;
      if ((inP || inA) && uniform() < density)
        dense[i][j] = dense[j][i] = 2 * uniform() - 1;
    }
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j < n; ++j)
      row += j != i && (i < n1) == (j < n1) ? fabs(dense[i][j]) : 0;
    dense[i][i] = i < n1 ? row + 0.5 + uniform() : -(0.3 + uniform());
  }
  pt->n = n;
  QDLDL_int k = 0;
  for (int j = 0; j < n; ++j) {
    pt->Ap[j] = k;
    for (int i = 0; i <= j; ++i)
      if (dense[i][j] != 0) {
        pt->Ai[k] = i;
        pt->col[k] = j;
        Kx[k] = dense[i][j];
        ++k;
      }
  }
  pt->Ap[n] = k;
  pt->nnz = k;
  for (int i = 0; i < n; ++i) {
    b[i] = 2 * uniform() - 1;
    pt->c[i] = 0.5 + uniform();
  }
}

/* x = M^-1 r by Gaussian elimination with partial pivoting (dense). */
static void dense_solve(int n, double m[NMAX][NMAX], const double *r,
                        double *x) {
  double a[NMAX][NMAX + 1];
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      a[i][j] = m[i][j];
    a[i][n] = r[i];
  }
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(a[i][k]) > fabs(a[p][k]))
        p = i;
    for (int j = 0; j <= n; ++j) {
      double t = a[k][j];
      a[k][j] = a[p][j];
      a[p][j] = t;
    }
    for (int i = k + 1; i < n; ++i) {
      double f = a[i][k] / a[k][k];
      for (int j = k; j <= n; ++j)
        a[i][j] -= f * a[k][j];
    }
  }
  for (int i = n - 1; i >= 0; --i) {
    double s = a[i][n];
    for (int j = i + 1; j < n; ++j)
      s -= a[i][j] * x[j];
    x[i] = s / a[i][i];
  }
}

static double central(objective f, const struct pattern *pt,
                      const QDLDL_float *Kx, const QDLDL_float *b, int j) {
  QDLDL_float K1[NNZMAX], K2[NNZMAX], b1[NMAX], b2[NMAX];
  memcpy(K1, Kx, sizeof(QDLDL_float) * pt->nnz);
  memcpy(K2, Kx, sizeof(QDLDL_float) * pt->nnz);
  memcpy(b1, b, sizeof(QDLDL_float) * pt->n);
  memcpy(b2, b, sizeof(QDLDL_float) * pt->n);
  QDLDL_float *v1 = j < pt->nnz ? K1 : b1, *v2 = j < pt->nnz ? K2 : b2;
  int at = j < pt->nnz ? j : j - (int)pt->nnz;
  double h = 1e-6 * (1 + fabs(v1[at]));
  v1[at] += h;
  v2[at] -= h;
  return (f(pt, K1, b1) - f(pt, K2, b2)) / (2 * h);
}

static double forward(objective f, const struct pattern *pt,
                      const QDLDL_float *Kx, const QDLDL_float *b, int j) {
  QDLDL_float dK[NNZMAX] = {0}, db[NMAX] = {0};
  if (j < pt->nnz)
    dK[j] = 1;
  else
    db[j - pt->nnz] = 1;
  return __enzyme_fwddiff((void *)f, enzyme_const, pt, enzyme_dup, Kx, dK,
                          enzyme_dup, b, db);
}

static void run(const char *name, unsigned seed, int n, int n1,
                double density) {
  struct pattern pt;
  double dense[NMAX][NMAX];
  QDLDL_float Kx[NNZMAX], b[NMAX];
  make_problem(seed, n, n1, density, &pt, dense, Kx, b);
  int nin = (int)(pt.nnz + pt.n);
  double bd[NMAX], cd[NMAX], x[NMAX], y[NMAX];
  for (int i = 0; i < n; ++i) {
    bd[i] = b[i];
    cd[i] = pt.c[i];
  }
  dense_solve(n, dense, bd, x);
  dense_solve(n, dense, cd, y);
  char what[128];

  /* 1. c.x: reverse against analytic values, differences, forward. */
  QDLDL_float gK[NNZMAX] = {0}, gb[NMAX] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, &pt, enzyme_dup, Kx, gK,
                    enzyme_dup, b, gb);
  for (int j = 0; j < nin; ++j) {
    double g = j < pt.nnz ? gK[j] : gb[j - pt.nnz], want;
    if (j < pt.nnz) {
      int r = (int)pt.Ai[j], c = pt.col[j];
      want = r == c ? -y[r] * x[c] : -(y[r] * x[c] + y[c] * x[r]);
    } else {
      want = y[j - pt.nnz];
    }
    snprintf(what, sizeof what, "%s c.x reverse vs analytic", name);
    check(what, j, g, want, 1e-10);
    snprintf(what, sizeof what, "%s c.x reverse vs differences", name);
    check(what, j, g, central(loss, &pt, Kx, b, j), 1e-6);
    snprintf(what, sizeof what, "%s c.x forward vs reverse", name);
    check(what, j, forward(loss, &pt, Kx, b, j), g, 1e-12);
  }

  /* 2. The Jacobian of x by forward mode, column by column. */
  for (int j = 0; j < nin; ++j) {
    QDLDL_float dK[NNZMAX] = {0}, db[NMAX] = {0}, xs[NMAX], dx[NMAX];
    double rhs[NMAX] = {0}, want[NMAX];
    if (j < pt.nnz) {
      dK[j] = 1;
      int r = (int)pt.Ai[j], c = pt.col[j];
      /* -dK x, dK symmetric with ones at (r, c) and (c, r) */
      rhs[r] -= x[c];
      if (r != c)
        rhs[c] -= x[r];
    } else {
      db[j - pt.nnz] = 1;
      rhs[j - pt.nnz] = 1;
    }
    dense_solve(n, dense, rhs, want);
    __enzyme_fwddiff((void *)solution, enzyme_const, &pt, enzyme_dup, Kx, dK,
                     enzyme_dup, b, db, enzyme_dup, xs, dx);
    snprintf(what, sizeof what, "%s Jacobian column %d", name, j);
    for (int i = 0; i < n; ++i)
      check(what, i, dx[i], want[i], 1e-10);
    snprintf(what, sizeof what, "%s forward mode's x", name);
    for (int i = 0; i < n; ++i)
      check(what, i, xs[i], x[i], 1e-10);
  }

  /* 3. log|det K|: gradient K^-1. */
  memset(gK, 0, sizeof gK);
  memset(gb, 0, sizeof gb);
  __enzyme_autodiff((void *)log_det, enzyme_const, &pt, enzyme_dup, Kx, gK,
                    enzyme_dup, b, gb);
  for (int j = 0; j < nin; ++j) {
    double g = j < pt.nnz ? gK[j] : gb[j - pt.nnz], want = 0;
    if (j < pt.nnz) {
      int r = (int)pt.Ai[j], c = pt.col[j];
      double e[NMAX] = {0}, col[NMAX];
      e[c] = 1;
      dense_solve(n, dense, e, col);
      want = r == c ? col[r] : 2 * col[r];
    }
    snprintf(what, sizeof what, "%s log|det| reverse vs analytic", name);
    check(what, j, g, want, 1e-10);
    snprintf(what, sizeof what, "%s log|det| reverse vs differences", name);
    check(what, j, g, central(log_det, &pt, Kx, b, j), 1e-6);
    snprintf(what, sizeof what, "%s log|det| forward vs reverse", name);
    check(what, j, forward(log_det, &pt, Kx, b, j), g, 1e-12);
  }
  printf("%s: n %d, %d values of K\n", name, n, (int)pt.nnz);
}

int main(void) {
  run("small", 1, 5, 3, 0.6);
  run("kkt", 7, 10, 6, 0.4);
  run("dense", 3, 12, 8, 0.9);
  printf("qdldl: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
