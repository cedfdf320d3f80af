/* Sparse Hessians as Enzyme's users compute them: forward mode over a
 * gradient (__enzyme_fwddiff of a function that calls __enzyme_autodiff),
 * the seed and the derivative of the gradient given as dense views
 * (__enzyme_todense), so that the reverse sweep's tape records the views
 * and reads them back. The gradient's own output is passed
 * enzyme_dupnoneed with a constant address ((double *)0x1, or NULL), as
 * Enzyme's programs do: it has no memory. A second function reads its
 * input through a view too (a ring: x[n] is x[0]). Checked against the
 * analytic Hessians, central differences of the gradient, and the dense
 * forward-over-reverse columns (forward against reverse). */
#include "check.h"

enum { N = 7, MaxEntries = 16 * N };

/* The non-zero entries, in the order the derivative stores them. */
typedef struct {
  struct {
    long row, col;
    double val;
  } at[MaxEntries];
  int count;
} triplets;

extern int enzyme_const, enzyme_dup, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);
double *__enzyme_todense(void *, void *, ...);

/* f(x) = sum_i (x_{i+1} - x_i)^3 + sum_i cos(x_i) x_i */
static double chain(long n, const double *x) {
  double s = 0;
  for (long i = 0; i + 1 < n; ++i) {
    double d = x[i + 1] - x[i];
    s += d * d * d;
  }
  for (long i = 0; i < n; ++i)
    s += cos(x[i]) * x[i];
  return s;
}

static void chain_gradient(long n, const double *x, double *g) {
  __enzyme_autodiff((void *)chain, enzyme_const, n, enzyme_dup, x, g);
}

static double chain_hessian(const double *x, long i, long j) {
  double h = 0;
  if (i == j) {
    if (i > 0)
      h += 6 * (x[i] - x[i - 1]);
    if (i + 1 < N)
      h += 6 * (x[i + 1] - x[i]);
    h += -2 * sin(x[i]) - x[i] * cos(x[i]);
  } else if (j == i + 1) {
    h = -6 * (x[i + 1] - x[i]);
  } else if (i == j + 1) {
    h = -6 * (x[i] - x[i - 1]);
  }
  return h;
}

/* The seed: 1 at element `hot` (a column of the identity), never written. */
static double hot_load(long offset, long hot) {
  return offset / (long)sizeof(double) == hot ? 1.0 : 0.0;
}
static void never_store(double v, long offset, long hot) {
  (void)v, (void)offset, (void)hot;
  abort();
}

/* The derivative of the gradient, kept as (column, row, value). */
static double zero_load(long offset, long column, triplets *t) {
  (void)offset, (void)column, (void)t;
  return 0;
}
static void keep_store(double v, long offset, long column, triplets *t) {
  if (v == 0)
    return;
  if (t->count == MaxEntries)
    abort();
  t->at[t->count].row = offset / (long)sizeof(double);
  t->at[t->count].col = column;
  t->at[t->count].val = v;
  ++t->count;
}

static void dense_from(const triplets *t, double H[N][N], long fold) {
  for (long i = 0; i < N; ++i)
    for (long j = 0; j < N; ++j)
      H[i][j] = 0;
  for (int k = 0; k < t->count; ++k) {
    long r = t->at[k].row % fold, c = t->at[k].col;
    CHECK_TRUE(r >= 0 && r < N && c >= 0 && c < N);
    if (r >= 0 && r < N && c >= 0 && c < N)
      H[r][c] += t->at[k].val;
  }
}

/* Every column of the Hessian, each through its two views. */
static void sparse_hessian(double *x, triplets *t, int null_output) {
  for (long j = 0; j < N; ++j) {
    double *dx = __enzyme_todense((void *)hot_load, (void *)never_store, j);
    double *dg = __enzyme_todense((void *)zero_load, (void *)keep_store, j, t);
    if (null_output)
      __enzyme_fwddiff((void *)chain_gradient, enzyme_const, (long)N,
                       enzyme_dup, x, dx, enzyme_dupnoneed, (double *)0, dg);
    else
      __enzyme_fwddiff((void *)chain_gradient, enzyme_const, (long)N,
                       enzyme_dup, x, dx, enzyme_dupnoneed, (double *)0x1, dg);
  }
}

/* The same columns with real memory: forward mode over reverse mode. */
static void dense_column(double *x, long j, double *column) {
  double dx[N] = {0}, g[N] = {0};
  dx[j] = 1;
  for (long i = 0; i < N; ++i)
    column[i] = 0;
  __enzyme_fwddiff((void *)chain_gradient, enzyme_const, (long)N, enzyme_dup,
                   x, dx, enzyme_dup, g, column);
}

static void check_chain(double *x) {
  static triplets t, t_null;
  sparse_hessian(x, &t, 0);
  sparse_hessian(x, &t_null, 1);
  double H[N][N], H_null[N][N];
  dense_from(&t, H, N + 1);
  dense_from(&t_null, H_null, N + 1);
  /* Only the band is stored. */
  for (int k = 0; k < t.count; ++k)
    CHECK_TRUE(labs(t.at[k].row - t.at[k].col) <= 1);
  const double h = 1e-5;
  for (long j = 0; j < N; ++j) {
    double column[N], xp[N], xm[N], gp[N] = {0}, gm[N] = {0};
    dense_column(x, j, column);
    for (long i = 0; i < N; ++i)
      xp[i] = xm[i] = x[i];
    xp[j] += h;
    xm[j] -= h;
    chain_gradient(N, xp, gp);
    chain_gradient(N, xm, gm);
    for (long i = 0; i < N; ++i) {
      CHECK_CLOSE(H[i][j], chain_hessian(x, i, j), 1e-12);
      CHECK_CLOSE(H_null[i][j], H[i][j], 0);
      CHECK_CLOSE(H[i][j], column[i], 1e-12);
      CHECK_CLOSE(H[i][j], (gp[i] - gm[i]) / (2 * h), 1e-6);
    }
  }
}

/* A ring: r(x) = sum_{i<n} (x_{i+1} - x_i)^2 (x_i + 2), where the input
 * is a view whose element n is element 0. */
static double ring(long n, const double *x) {
  double s = 0;
  for (long i = 0; i < n; ++i) {
    double d = x[i + 1] - x[i];
    s += d * d * (x[i] + 2);
  }
  return s;
}

static void ring_gradient(long n, const double *x, double *g) {
  __enzyme_autodiff((void *)ring, enzyme_const, n, enzyme_dup, x, g);
}

static double ring_load(long offset, const double *x, long n) {
  return x[(offset / (long)sizeof(double)) % n];
}
static void ring_store(double v, long offset, const double *x, long n) {
  (void)v, (void)offset, (void)x, (void)n;
  abort();
}
/* The seed of element `hot`, which is also element n. */
static double ring_hot_load(long offset, long hot, long n) {
  return (offset / (long)sizeof(double)) % n == hot ? 1.0 : 0.0;
}
static void ring_never_store(double v, long offset, long hot, long n) {
  (void)v, (void)offset, (void)hot, (void)n;
  abort();
}

static double ring_hessian(const double *x, long i, long j) {
  /* Term k depends on x_k (a) and x_{k+1} (b): (b - a)^2 (a + 2). */
  double h = 0;
  for (long k = 0; k < N; ++k) {
    long a = k, b = (k + 1) % N;
    double d = x[b] - x[a], w = x[a] + 2;
    double haa = 2 * w - 4 * d, hbb = 2 * w, hab = -2 * w + 2 * d;
    if (i == a && j == a)
      h += haa;
    if (i == b && j == b)
      h += hbb;
    if ((i == a && j == b) || (i == b && j == a))
      h += hab;
  }
  return h;
}

static void check_ring(double *x0) {
  static triplets t;
  long n = N;
  double *x = __enzyme_todense((void *)ring_load, (void *)ring_store, x0, n);
  for (long j = 0; j < N; ++j) {
    double *dx = __enzyme_todense((void *)ring_hot_load,
                                  (void *)ring_never_store, j, n);
    double *dg = __enzyme_todense((void *)zero_load, (void *)keep_store, j, &t);
    __enzyme_fwddiff((void *)ring_gradient, enzyme_const, n, enzyme_dup, x, dx,
                     enzyme_dupnoneed, (double *)0x1, dg);
  }
  double H[N][N];
  dense_from(&t, H, N);
  for (long i = 0; i < N; ++i)
    for (long j = 0; j < N; ++j)
      CHECK_CLOSE(H[i][j], ring_hessian(x0, i, j), 1e-12);
  /* Central differences of the ring's gradient (a copy with x_n = x_0). */
  const double h = 1e-5;
  for (long j = 0; j < N; ++j) {
    double xp[N + 1], xm[N + 1], gp[N + 1] = {0}, gm[N + 1] = {0};
    for (long i = 0; i < N; ++i)
      xp[i] = xm[i] = x0[i];
    xp[j] += h;
    xm[j] -= h;
    xp[N] = xp[0];
    xm[N] = xm[0];
    ring_gradient(N, xp, gp);
    ring_gradient(N, xm, gm);
    gp[0] += gp[N];
    gm[0] += gm[N];
    for (long i = 0; i < N; ++i)
      CHECK_CLOSE(H[i][j], (gp[i] - gm[i]) / (2 * h),
                  1e-6);
  }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.4 + 0.3 * i - 0.07 * i * i;
  check_chain(x);
  check_ring(x);
  return check_finish();
}
