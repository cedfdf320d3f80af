/* A sparse matrix in CSC form, as OSQP keeps its problem data: a struct of
 * integer counts, `long long *` column pointers and row indices and a
 * `double *` of values. The pattern comes from a struct passed
 * enzyme_const, copied whole into a local whose values pointer is then set
 * to the active input (`Csc a = *pattern; a.x = x;`), and a helper that
 * is not inlined copies the matrix into a new one it allocates with the
 * count of values it reads from the column pointers (`a->p[a->n]`) and
 * stores into the new matrix's struct.
 *
 * At -O0 (or without TBAA at any level) nothing types the `long long`s
 * read through the column pointers: they are moved integers that may be
 * a double's bits. Until 2026-12-07 forward mode read their tangents
 * through the local's shadow of the column pointers, which the copy from
 * the constant pattern had left null: a crash; and the count passed on
 * into the allocating helper was refused where it stored it ("a value with
 * a derivative is stored into memory that has no shadow": OSQP's
 * csc_copy/csc_spalloc, scripts/realcode/osqp.sh at -O0).
 *
 * Forward mode along each input against the analytic derivative and
 * central differences, reverse mode against forward mode. */
#include "check.h"

#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

enum { N = 4, NNZ = 6 };

typedef struct {
  long long m, n;
  long long *p;
  long long *i;
  double *x;
  long long nzmax, nz;
} Csc;

__attribute__((noinline)) static Csc *allocate(long long m, long long n,
                                               long long nzmax, int values) {
  Csc *a = calloc(1, sizeof(Csc));
  if (!a)
    return 0;
  a->m = m;
  a->n = n;
  a->nzmax = nzmax;
  a->nz = -1;
  a->p = malloc(sizeof(long long) * (n + 1));
  a->i = values ? malloc(sizeof(long long) * nzmax) : 0;
  a->x = values ? malloc(sizeof(double) * nzmax) : 0;
  return a;
}

static void release(Csc *a) {
  free(a->p);
  free(a->i);
  free(a->x);
  free(a);
}

/* The copy, its count read from the column pointers. */
__attribute__((noinline)) static Csc *copy(const Csc *a) {
  Csc *b = allocate(a->m, a->n, a->p[a->n], a->x != 0);
  long long nnz = a->p[a->n];
  for (long long k = 0; k <= a->n; ++k)
    b->p[k] = a->p[k];
  for (long long k = 0; k < nnz; ++k) {
    b->i[k] = a->i[k];
    b->x[k] = a->x[k];
  }
  return b;
}

/* The count read and only compared: the copy's size comes from n. */
__attribute__((noinline)) static double scaled_sum(const Csc *a) {
  long long last = a->p[a->n];
  double s = 0;
  for (long long k = 0; k < a->nzmax && k < last; ++k)
    s += (double)(a->i[k] + 1) * a->x[k];
  return s;
}

/* sum (i_k + 1) x_k + sum (col_k + 1) x_k^2 over the copied values. */
static double objective(const double *x, const Csc *pattern) {
  Csc a = *pattern;
  a.x = (double *)x;
  Csc *b = copy(&a);
  double r = scaled_sum(b);
  for (long long j = 0; j < b->n; ++j)
    for (long long k = b->p[j]; k < b->p[j + 1]; ++k)
      r += b->x[k] * b->x[k] * (double)(j + 1);
  release(b);
  return r;
}

static double analytic(const double *x, const Csc *pattern, int t) {
  /* d/dx_t: (i_t + 1) + 2 x_t (col(t) + 1) */
  long long col = 0;
  while (pattern->p[col + 1] <= t)
    ++col;
  return (double)(pattern->i[t] + 1) + 2 * x[t] * (double)(col + 1);
}

int main(void) {
  long long p[N + 1] = {0, 2, 3, 5, 6}, i[NNZ] = {0, 2, 1, 0, 3, 2};
  Csc pattern = {N, N, p, i, 0, NNZ, -1};
  double x[NNZ] = {0.5, -1.25, 2.0, 0.75, -0.4, 1.5};
  double g[NNZ] = {0};
  __enzyme_autodiff((void *)objective, enzyme_dup, x, g, enzyme_const,
                    &pattern);
  for (int t = 0; t < NNZ; ++t) {
    double dx[NNZ] = {0};
    dx[t] = 1;
    double d = __enzyme_fwddiff((void *)objective, enzyme_dup, x, dx,
                                enzyme_const, &pattern);
    double xp[NNZ], xm[NNZ], h = 1e-6;
    for (int k = 0; k < NNZ; ++k)
      xp[k] = xm[k] = x[k];
    xp[t] += h;
    xm[t] -= h;
    double fd = (objective(xp, &pattern) - objective(xm, &pattern)) / (2 * h);
    CHECK_CLOSE(d, analytic(x, &pattern, t), 1e-12);
    CHECK_CLOSE(d, fd, 1e-6);
    CHECK_CLOSE(g[t], d, 1e-12);
  }
  /* The pattern is the caller's: untouched. */
  CHECK_TRUE(pattern.p == p && pattern.i == i && pattern.x == 0);
  CHECK_TRUE(pattern.nzmax == NNZ && p[N] == NNZ);
  return check_finish();
}
