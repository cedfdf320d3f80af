/* Sparse derivatives through Enzyme's dense views, __enzyme_todense: the
 * shadows are views whose loads and stores call the program's functions.
 * A one-hot seed is a view that loads 1 at one index and 0 elsewhere; the
 * derivatives are written to a view that keeps the non-zero values as
 * (row, column, value) triplets (duplicates summed). The sparse Jacobian
 * of a banded function, by columns in forward mode and by rows in reverse
 * mode, is checked against its analytic values and central finite
 * differences, and its triplets against the band. */
#include "check.h"

#include <string.h>

enum { N = 12, MaxEntries = 8 * N * N };

typedef struct {
  long row[MaxEntries], col[MaxEntries];
  double val[MaxEntries];
  int count;
} triplets;

double *__enzyme_todense(void *, void *, ...);
double *__enzyme_post_sparse_todense(void *, void *, ...);
void __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup;

/* y_i = x_i^2 x_{i-1} + sin x_i + 0.5 x_{i+1}, with x_{-1} = 1, x_N = 0. */
static void banded(const double *x, double *y, long n) {
  for (long i = 0; i < n; ++i) {
    double left = i > 0 ? x[i - 1] : 1.0;
    double right = i + 1 < n ? x[i + 1] : 0.0;
    y[i] = x[i] * x[i] * left + sin(x[i]) + 0.5 * right;
  }
}

static double entry(const double *x, long i, long j) {
  double left = i > 0 ? x[i - 1] : 1.0;
  if (j == i)
    return 2 * x[i] * left + cos(x[i]);
  if (j == i - 1)
    return x[i] * x[i];
  if (j == i + 1)
    return 0.5;
  return 0;
}

/* A one-hot seed at element `hot`: never written. */
static double seed_load(long offset, long hot) {
  return offset / (long)sizeof(double) == hot ? 1.0 : 0.0;
}
static void seed_store(double v, long offset, long hot) {
  (void)offset;
  (void)hot;
  /* (The reverse sweep clears the seed it has read.) */
  if (v != 0)
    abort();
}

/* Derivatives kept as triplets: `fixed` is the row (reverse mode) or the
 * column (forward mode), the offset gives the other index. */
static double sparse_load(long offset, long fixed, long by_rows, triplets *t) {
  (void)offset;
  (void)fixed;
  (void)by_rows;
  (void)t;
  return 0.0;
}
__attribute__((always_inline)) static inline void
sparse_store(double v, long offset, long fixed, long by_rows, triplets *t) {
  if (v == 0)
    return;
  long other = offset / (long)sizeof(double);
  t->row[t->count] = by_rows ? fixed : other;
  t->col[t->count] = by_rows ? other : fixed;
  t->val[t->count] = v;
  ++t->count;
}

static void dense_from(const triplets *t, double J[N][N]) {
  memset(J, 0, sizeof(double) * N * N);
  for (int k = 0; k < t->count; ++k)
    J[t->row[k]][t->col[k]] += t->val[k];
}

static void check_jacobian(const triplets *t, const double *x) {
  double J[N][N];
  dense_from(t, J);
  for (long i = 0; i < N; ++i)
    for (long j = 0; j < N; ++j) {
      CHECK_CLOSE(J[i][j], entry(x, i, j), 1e-12);
      /* Central finite differences. */
      double xp[N], xm[N], yp[N], ym[N], h = 1e-6;
      memcpy(xp, x, sizeof xp);
      memcpy(xm, x, sizeof xm);
      xp[j] += h;
      xm[j] -= h;
      banded(xp, yp, N);
      banded(xm, ym, N);
      CHECK_CLOSE(J[i][j], (yp[i] - ym[i]) / (2 * h), 1e-6);
    }
  /* Only the band is stored. */
  for (int k = 0; k < t->count; ++k)
    CHECK_TRUE(t->row[k] - t->col[k] <= 1 && t->col[k] - t->row[k] <= 1);
}

/* Column j of the Jacobian: the tangent of y for the seed e_j. */
static void jacobian_by_columns(const double *x, triplets *t) {
  double y[N];
  for (long j = 0; j < N; ++j) {
    double *dx = __enzyme_todense((void *)seed_load, (void *)seed_store, j);
    double *dy = __enzyme_todense((void *)sparse_load, (void *)sparse_store,
                                  j, 0L, t);
    __enzyme_fwddiff((void *)banded, enzyme_dup, x, dx, enzyme_dup, y, dy,
                     enzyme_const, (long)N);
  }
}

/* Row i of the Jacobian: the gradient of y_i, the adjoint of y seeded
 * with e_i. (At -O0 the reverse sweep records the shadows of its pointer
 * variables on its tape: the views are followed through it.) */
static void jacobian_by_rows(double *x, triplets *t) {
  double y[N];
  for (long i = 0; i < N; ++i) {
    double *dy = __enzyme_todense((void *)seed_load, (void *)seed_store, i);
    double *dx = __enzyme_post_sparse_todense(
        (void *)sparse_load, (void *)sparse_store, i, 1L, t);
    __enzyme_autodiff((void *)banded, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, (long)N);
  }
}

/* A view used directly: loads and stores at byte offsets. */
static double scaled_load(long offset, double scale) {
  return scale * (double)(offset / (long)sizeof(double));
}
static void sum_store(double v, long offset, double scale) {
  (void)scale;
  static double total;
  total += v * (double)offset;
  if (offset == 3 * (long)sizeof(double))
    CHECK_CLOSE(total, 12.5 * 24 + 2 * 8 * 2.5, 1e-12);
}
static void direct_view(void) {
  double *v = __enzyme_todense((void *)scaled_load, (void *)sum_store, 2.5);
  CHECK_CLOSE(v[4], 10.0, 0);
  CHECK_CLOSE(v[7] + v[1], 20.0, 0);
  v[1] = v[2];
  v[3] = v[5];
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.15 * i;
  static triplets by_columns, by_rows;
  jacobian_by_columns(x, &by_columns);
  check_jacobian(&by_columns, x);
  CHECK_TRUE(by_columns.count == 3 * N - 2);
  jacobian_by_rows(x, &by_rows);
  check_jacobian(&by_rows, x);
  direct_view();
  return check_finish();
}
