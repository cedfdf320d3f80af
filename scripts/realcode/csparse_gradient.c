/* Derivatives through CSparse (Tim Davis's Concise Sparse matrix package,
 * SuiteSparse's CSparse/: Source/cs_*.c compiled unchanged, each on its own
 * with the derivatives made at link time, or included into this file with
 * -DCSPARSE_ONE_FILE). What the derivatives go through: `cs` structs whose
 * int64 (or int) index arrays and double values CSparse mallocs, reallocs
 * and frees itself; approximate minimum degree orderings (cs_amd, integers
 * only) and symbolic analyses (cs_schol, cs_sqr: elimination trees,
 * postorders, column counts); the up-looking Cholesky cs_chol with its
 * nonzero-pattern reach (cs_ereach); the left-looking LU cs_lu with
 * threshold partial pivoting (cs_spsolve's sparse triangular solve over a
 * depth-first reach); Householder QR (cs_qr, cs_house, cs_happly); triplet
 * matrices grown one entry at a time by cs_entry (cs_sprealloc: realloc of
 * the values), compressed (cs_compress, cs_cumsum) with duplicates summed
 * (cs_dupl); transposes and products (cs_transpose, cs_multiply with its
 * cs_scatter), cs_gaxpy.
 *
 * The values of A are one argument (Ax, in the order of the CSC pattern or
 * of the triplets), b another; the pattern, orderings and the loss's
 * weights c are constant. Checked, for each case and ordering:
 *  - cholsol: A symmetric positive definite given by its upper triangle;
 *    d(c.x)/db = y, d/dA_ij = -(y_i x_j + y_j x_i) (y_i x_i on the
 *    diagonal), y = A^-1 c;
 *  - lusol (threshold 1: partial pivoting; 0.001: the diagonal preferred):
 *    A general; d/db = y, d/dA_ij = -y_i x_j, A^T y = c;
 *  - triplet: A built inside from triplets by cs_entry (some values split
 *    in two duplicate entries, starting from room for one entry), then
 *    cs_compress, cs_dupl and cs_lusol: the same gradient, each duplicate
 *    getting the gradient of their sum;
 *  - qrsol: A m x n, m > n, least squares; with r = b - A x and
 *    z = (A^T A)^-1 c: d/db = A z, d/dA_ij = r_i z_j - (A z)_i x_j;
 *  - normal: the same least squares by cs_transpose, cs_multiply, cs_gaxpy
 *    and cs_cholsol of the normal equations;
 *  - logdet: log det A = 2 sum log L_jj after cs_schol and cs_chol (the
 *    diagonal first in each column of L): d/dA_ij = 2 (A^-1)_ij, (A^-1)_ii
 *    on the diagonal.
 * Reverse mode against the analytic values (10^-9), central differences
 * (10^-6) and forward mode (one unit direction per value, 10^-10). The
 * triplet case is built apart (-DCSPARSE_TRIPLET, with the square cases),
 * so that a refusal of one build leaves the other's checks. Run by
 * csparse.sh. */
#include "cs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CSPARSE_ONE_FILE
#include CSPARSE_ONE_FILE
#endif

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { MMAX = 16, NMAX = 12, NNZMAX = MMAX * NMAX + 8 };

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

/* A problem: the pattern of A (CSC, or triplets for the triplet case), the
 * ordering and threshold, the loss's weights. Constant for the
 * derivatives. */
struct problem {
  csi m, n, nnz, order;
  double tol;
  csi Ap[NMAX + 1], Ai[NNZMAX];
  csi Ti[NNZMAX], Tj[NNZMAX]; /* triplets: row and column of each value */
  double c[NMAX];
};

/* The cs view of the values Ax on the problem's pattern (nothing allocated:
 * CSparse reads A only). */
static cs view(const struct problem *pb, const double *Ax) {
  cs A = {pb->nnz, pb->m, pb->n, (csi *)pb->Ap, (csi *)pb->Ai, (double *)Ax,
          -1};
  return A;
}

static double dot_c(const struct problem *pb, const double *x) {
  double s = 0;
  for (csi i = 0; i < pb->n; ++i)
    s += pb->c[i] * x[i];
  return s;
}

/* Each loss solves into a workspace it allocates, as a program would. */
static double chol_loss(const struct problem *pb, const double *Ax,
                        const double *b) {
  cs A = view(pb, Ax);
  double *x = malloc(sizeof(double) * pb->n);
  memcpy(x, b, sizeof(double) * pb->n);
  double s = cs_cholsol(pb->order, &A, x) ? dot_c(pb, x) : NAN;
  free(x);
  return s;
}

static double lu_loss(const struct problem *pb, const double *Ax,
                      const double *b) {
  cs A = view(pb, Ax);
  double *x = malloc(sizeof(double) * pb->n);
  memcpy(x, b, sizeof(double) * pb->n);
  double s = cs_lusol(pb->order, &A, x, pb->tol) ? dot_c(pb, x) : NAN;
  free(x);
  return s;
}

#ifdef CSPARSE_TRIPLET
static double triplet_loss(const struct problem *pb, const double *Tx,
                           const double *b) {
  cs *T = cs_spalloc(0, 0, 1, 1, 1);
  for (csi k = 0; k < pb->nnz; ++k)
    cs_entry(T, pb->Ti[k], pb->Tj[k], Tx[k]);
  cs *A = cs_compress(T);
  cs_spfree(T);
  double *x = malloc(sizeof(double) * pb->n);
  memcpy(x, b, sizeof(double) * pb->n);
  double s = NAN;
  if (A && cs_dupl(A) && cs_lusol(pb->order, A, x, pb->tol))
    s = dot_c(pb, x);
  free(x);
  cs_spfree(A);
  return s;
}

#endif

static double qr_loss(const struct problem *pb, const double *Ax,
                      const double *b) {
  cs A = view(pb, Ax);
  double *x = malloc(sizeof(double) * pb->m);
  memcpy(x, b, sizeof(double) * pb->m);
  double s = cs_qrsol(pb->order, &A, x) ? dot_c(pb, x) : NAN;
  free(x);
  return s;
}

static double normal_loss(const struct problem *pb, const double *Ax,
                          const double *b) {
  cs A = view(pb, Ax);
  cs *AT = cs_transpose(&A, 1);
  cs *M = cs_multiply(AT, &A);
  double *x = cs_calloc(pb->n, sizeof(double));
  double s = NAN;
  if (AT && M && x && cs_gaxpy(AT, b, x) && cs_cholsol(pb->order, M, x))
    s = dot_c(pb, x);
  cs_free(x);
  cs_spfree(M);
  cs_spfree(AT);
  return s;
}

static double logdet_loss(const struct problem *pb, const double *Ax,
                          const double *b) {
  (void)b;
  cs A = view(pb, Ax);
  css *S = cs_schol(pb->order, &A);
  csn *N = S ? cs_chol(&A, S) : NULL;
  double s = NAN;
  if (N) {
    s = 0;
    for (csi j = 0; j < pb->n; ++j)
      s += 2 * log(N->L->x[N->L->p[j]]);
  }
  cs_nfree(N);
  cs_sfree(S);
  return s;
}

typedef double (*objective)(const struct problem *, const double *,
                            const double *);

static unsigned long long rng_state;
static double uniform(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* x = M^-1 r by Gaussian elimination with partial pivoting (dense, n x n
 * in the top left of m). */
static void dense_solve(int n, double m[MMAX][MMAX], const double *r,
                        double *x) {
  double a[MMAX][MMAX + 1];
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

enum kind { SPD, GENERAL, TALL };

/* A random problem: dense holds A (all of it, also for SPD, whose pattern
 * keeps the upper triangle); Ax its values in the pattern's order. */
static void make_problem(unsigned seed, enum kind kind, int m, int n,
                         double density, struct problem *pb,
                         double dense[MMAX][MMAX], double *Ax, double *b) {
  rng_state = seed;
  memset(pb, 0, sizeof *pb);
  memset(dense, 0, sizeof(double) * MMAX * MMAX);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      if (kind == SPD && i >= j)
        continue;
      if (uniform() < density) {
        dense[i][j] = 2 * uniform() - 1;
        if (kind == SPD)
          dense[j][i] = dense[i][j];
      }
    }
  for (int i = 0; i < n; ++i) {
    if (kind == SPD) {
      double row = 0;
      for (int j = 0; j < n; ++j)
        row += j != i ? fabs(dense[i][j]) : 0;
      dense[i][i] = row + 0.5 + uniform();
    } else if (kind == GENERAL) {
      /* small diagonals: partial pivoting picks other rows */
      dense[i][i] = (uniform() < 0.5 ? -1 : 1) * (0.2 + 0.6 * uniform());
    } else {
      dense[i][i] = 1 + uniform();
    }
  }
  pb->m = m;
  pb->n = n;
  csi k = 0;
  for (int j = 0; j < n; ++j) {
    pb->Ap[j] = k;
    for (int i = 0; i < (kind == SPD ? j + 1 : m); ++i)
      if (dense[i][j] != 0) {
        pb->Ai[k] = i;
        pb->Ti[k] = i;
        pb->Tj[k] = j;
        Ax[k] = dense[i][j];
        ++k;
      }
  }
  pb->Ap[n] = k;
  pb->nnz = k;
  for (int i = 0; i < m; ++i)
    b[i] = 2 * uniform() - 1;
  for (int i = 0; i < n; ++i)
    pb->c[i] = 0.5 + uniform();
}

#ifdef CSPARSE_TRIPLET
/* Splits every third value into two duplicate triplets (a/3 and 2a/3),
 * the triplets in a shuffled order. The CSC index of each triplet's entry
 * in `of`. */
static void make_triplets(struct problem *pb, const double *Ax, double *Tx,
                          int *of) {
  csi n0 = pb->nnz, k = 0;
  csi Ti[NNZMAX], Tj[NNZMAX];
  for (csi e = 0; e < n0; ++e) {
    if (e % 3 == 0) {
      Ti[k] = pb->Ti[e];
      Tj[k] = pb->Tj[e];
      Tx[k] = Ax[e] / 3;
      of[k++] = (int)e;
      Ti[k] = pb->Ti[e];
      Tj[k] = pb->Tj[e];
      Tx[k] = 2 * Ax[e] / 3;
    } else {
      Ti[k] = pb->Ti[e];
      Tj[k] = pb->Tj[e];
      Tx[k] = Ax[e];
    }
    of[k++] = (int)e;
  }
  for (csi i = k - 1; i > 0; --i) { /* Fisher-Yates */
    csi j = (csi)(uniform() * (double)(i + 1));
    csi ti = Ti[i], tj = Tj[i];
    double tx = Tx[i];
    int to = of[i];
    Ti[i] = Ti[j], Tj[i] = Tj[j], Tx[i] = Tx[j], of[i] = of[j];
    Ti[j] = ti, Tj[j] = tj, Tx[j] = tx, of[j] = to;
  }
  for (csi i = 0; i < k; ++i)
    pb->Ti[i] = Ti[i], pb->Tj[i] = Tj[i];
  pb->nnz = k;
}

#endif

static double central(objective f, const struct problem *pb, const double *Ax,
                      const double *b, int j) {
  double A1[NNZMAX], A2[NNZMAX], b1[MMAX], b2[MMAX];
  memcpy(A1, Ax, sizeof(double) * pb->nnz);
  memcpy(A2, Ax, sizeof(double) * pb->nnz);
  memcpy(b1, b, sizeof(double) * pb->m);
  memcpy(b2, b, sizeof(double) * pb->m);
  double *v1 = j < pb->nnz ? A1 : b1, *v2 = j < pb->nnz ? A2 : b2;
  int at = j < pb->nnz ? j : j - (int)pb->nnz;
  double h = 1e-6 * (1 + fabs(v1[at]));
  v1[at] += h;
  v2[at] -= h;
  return (f(pb, A1, b1) - f(pb, A2, b2)) / (2 * h);
}

static double forward(objective f, const struct problem *pb, const double *Ax,
                      const double *b, int j) {
  double dA[NNZMAX] = {0}, db[MMAX] = {0};
  if (j < pb->nnz)
    dA[j] = 1;
  else
    db[j - pb->nnz] = 1;
  return __enzyme_fwddiff((void *)f, enzyme_const, pb, enzyme_dup, Ax, dA,
                          enzyme_dup, b, db);
}

/* Checks f's gradient against want[] (nnz values of A then m of b). */
static void check_case(const char *name, objective f, const struct problem *pb,
                       const double *Ax, const double *b, const double *want) {
  double gA[NNZMAX] = {0}, gb[MMAX] = {0};
  char what[160];
  double v = f(pb, Ax, b);
  snprintf(what, sizeof what, "%s value", name);
  check(what, 0, isfinite(v) ? 0 : 1, 0, 0);
  __enzyme_autodiff((void *)f, enzyme_const, pb, enzyme_dup, Ax, gA,
                    enzyme_dup, b, gb);
  int nin = (int)(pb->nnz + pb->m);
  for (int j = 0; j < nin; ++j) {
    double g = j < pb->nnz ? gA[j] : gb[j - pb->nnz];
    snprintf(what, sizeof what, "%s reverse vs analytic", name);
    check(what, j, g, want[j], 1e-9);
    snprintf(what, sizeof what, "%s reverse vs differences", name);
    check(what, j, g, central(f, pb, Ax, b, j), 1e-6);
    snprintf(what, sizeof what, "%s forward vs reverse", name);
    check(what, j, forward(f, pb, Ax, b, j), g, 1e-10);
  }
}

static void square_cases(unsigned seed, int n, double density) {
  struct problem pb;
  double dense[MMAX][MMAX], Ax[NNZMAX], b[MMAX], x[MMAX], y[MMAX], want[NNZMAX + MMAX];
  double At[MMAX][MMAX];
  char name[96];

  /* Symmetric positive definite: cholsol and logdet. */
  make_problem(seed, SPD, n, n, density, &pb, dense, Ax, b);
  dense_solve(n, dense, b, x);
  dense_solve(n, dense, pb.c, y);
  for (csi order = 0; order <= 1; ++order) {
    pb.order = order;
    for (csi k = 0; k < pb.nnz; ++k) {
      int r = (int)pb.Ti[k], c = (int)pb.Tj[k];
      want[k] = r == c ? -y[r] * x[c] : -(y[r] * x[c] + y[c] * x[r]);
    }
    for (int i = 0; i < n; ++i)
      want[pb.nnz + i] = y[i];
    snprintf(name, sizeof name, "spd%u cholsol order %d", seed, (int)order);
    check_case(name, chol_loss, &pb, Ax, b, want);
    for (csi k = 0; k < pb.nnz; ++k) {
      int r = (int)pb.Ti[k], c = (int)pb.Tj[k];
      double e[MMAX] = {0}, col[MMAX];
      e[c] = 1;
      dense_solve(n, dense, e, col);
      want[k] = r == c ? col[r] : 2 * col[r];
    }
    for (int i = 0; i < n; ++i)
      want[pb.nnz + i] = 0;
    snprintf(name, sizeof name, "spd%u logdet order %d", seed, (int)order);
    check_case(name, logdet_loss, &pb, Ax, b, want);
  }

  /* General: lusol for every ordering and two thresholds, and from
   * triplets. */
  make_problem(seed + 100, GENERAL, n, n, density, &pb, dense, Ax, b);
  dense_solve(n, dense, b, x);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      At[i][j] = dense[j][i];
  dense_solve(n, At, pb.c, y);
  for (csi k = 0; k < pb.nnz; ++k)
    want[k] = -y[pb.Ti[k]] * x[pb.Tj[k]];
  for (int i = 0; i < n; ++i)
    want[pb.nnz + i] = y[i];
  for (csi order = 0; order <= 3; ++order)
    for (int t = 0; t < 2; ++t) {
      pb.order = order;
      pb.tol = t ? 0.001 : 1;
      snprintf(name, sizeof name, "gen%u lusol order %d tol %g", seed,
               (int)order, pb.tol);
      check_case(name, lu_loss, &pb, Ax, b, want);
    }
#ifdef CSPARSE_TRIPLET
  double Tx[NNZMAX], twant[NNZMAX + MMAX];
  int of[NNZMAX];
  csi nnz0 = pb.nnz;
  make_triplets(&pb, Ax, Tx, of);
  for (csi k = 0; k < pb.nnz; ++k)
    twant[k] = want[of[k]];
  for (int i = 0; i < n; ++i)
    twant[pb.nnz + i] = want[nnz0 + i];
  for (csi order = 0; order <= 3; order += 3) {
    pb.order = order;
    pb.tol = 1;
    snprintf(name, sizeof name, "gen%u triplet lusol order %d", seed,
             (int)order);
    check_case(name, triplet_loss, &pb, Tx, b, twant);
  }
#endif
}

static void tall_cases(unsigned seed, int m, int n, double density) {
  struct problem pb;
  double dense[MMAX][MMAX], Ax[NNZMAX], b[MMAX], want[NNZMAX + MMAX];
  double ata[MMAX][MMAX] = {{0}}, atb[MMAX] = {0}, x[MMAX], z[MMAX];
  double r[MMAX], az[MMAX];
  char name[96];
  make_problem(seed, TALL, m, n, density, &pb, dense, Ax, b);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < m; ++k)
        ata[i][j] += dense[k][i] * dense[k][j];
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < m; ++k)
      atb[i] += dense[k][i] * b[k];
  dense_solve(n, ata, atb, x);
  dense_solve(n, ata, pb.c, z);
  for (int i = 0; i < m; ++i) {
    r[i] = b[i];
    az[i] = 0;
    for (int j = 0; j < n; ++j) {
      r[i] -= dense[i][j] * x[j];
      az[i] += dense[i][j] * z[j];
    }
  }
  for (csi k = 0; k < pb.nnz; ++k) {
    int i = (int)pb.Ti[k], j = (int)pb.Tj[k];
    want[k] = r[i] * z[j] - az[i] * x[j];
  }
  for (int i = 0; i < m; ++i)
    want[pb.nnz + i] = az[i];
  for (csi order = 0; order <= 3; order += 3) {
    pb.order = order;
    snprintf(name, sizeof name, "tall%u qrsol order %d", seed, (int)order);
    check_case(name, qr_loss, &pb, Ax, b, want);
  }
  for (csi order = 0; order <= 1; ++order) {
    pb.order = order;
    snprintf(name, sizeof name, "tall%u normal cholsol order %d", seed,
             (int)order);
    check_case(name, normal_loss, &pb, Ax, b, want);
  }
}

int main(void) {
  square_cases(1, 6, 0.5);
  square_cases(2, 10, 0.3);
  square_cases(3, 12, 0.6);
#ifndef CSPARSE_TRIPLET
  tall_cases(4, 9, 5, 0.5);
  tall_cases(5, 16, 10, 0.35);
#endif
  printf("csparse: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
