/* Derivatives through cminpack (Frederic Devernay's C translation of
 * MINPACK; github.com/devernay/cminpack), its sources compiled unchanged:
 * each file on its own, the derivatives of its functions made at link time,
 * or all of them included at the end of this file (-DCMINPACK_ONE_FILE).
 * Written the way Enzyme users write it: __enzyme_autodiff and
 * __enzyme_fwddiff with enzyme_dup, enzyme_dupnoneed, enzyme_const and
 * enzyme_out. The code differentiated is MINPACK's: Fortran-style 1-based
 * pointers (`--x; fjac -= fjac_offset;`), enorm's three scaled sums,
 * dpmpar's machine constants, pivoted Householder QR, Givens rotations,
 * the Levenberg-Marquardt parameter found by its own iteration, Powell's
 * dogleg and Broyden's rank-one updates, the residuals called through a
 * function pointer with a `void *` of user data.
 *
 *  parts:    enorm (each of its sums), qrfac, qrsolv, lmpar, dogleg,
 *            fdjac1 (dense and banded), fdjac2, covar and covar1 on their
 *            own: a scalar function of their outputs, reverse mode against
 *            forward mode, central differences and, where known, the
 *            analytic gradient;
 *  jacobian: lmder, lmstr and hybrj given Jacobians computed by AD inside
 *            their callbacks (__enzyme_fwddiff per column,
 *            __enzyme_autodiff per row), checked against the hand-written
 *            Jacobian at every call; the fits must reach lmdif's and
 *            hybrd's solutions;
 *  solver:   the solution of a fit (lmdif, lmder with a hand-written or an
 *            AD Jacobian, lmstr) and of a system of equations (hybrd,
 *            hybrj) differentiated with respect to the data, the abscissae
 *            and the starting point through the solver: reverse against
 *            forward mode, central differences and the implicit-function
 *            derivative of the solution.
 *
 * Built with -D__cminpack_float__ it checks cminpack's float variant (the
 * s-prefixed functions) with tolerances for float. Run by cminpack.sh. */
#include <cminpack.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef __cminpack_real__ real_t;
#define CM(name) __cminpack_func__(name)

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
real_t __enzyme_autodiff_scalar(void *, ...);
real_t __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_void(void *, ...);

#ifdef __cminpack_float__
#define IS_FLOAT 1
#define TOL(d, f) ((real_t)(f))
#else
#define IS_FLOAT 0
#define TOL(d, f) ((real_t)(d))
#endif

enum { MAXIN = 48, M = 16, NFIT = 4, NSYS = 6, MAXN = 8 };

static int failures, checks, case_failures;

static void check(const char *what, const char *name, int i, double got,
                  double want, double tol, double scale) {
  int ok = fabs(got - want) <= tol * (scale + fabs(want)) &&
           got == got && want == want;
  ++checks;
  if (!ok) {
    printf("  %s %s [%d]: %.12g, expected %.12g  FAIL\n", name, what, i, got,
           want);
    ++failures;
  }
}

/* A fixed weight for output k of a case. */
static real_t weight(int k) { return (real_t)(0.6 + sin(0.7 * k + 0.3)); }

/* ------------------------------------------------------------------ */
/* The check of one scalar function of a vector of inputs. */

typedef real_t (*scalar_fn)(const real_t *v, const void *ctx);
typedef void (*gradient_fn)(real_t *v, real_t *g, const void *ctx);
typedef real_t (*tangent_fn)(real_t *v, real_t *d, const void *ctx);

/* The gradient by reverse mode and the tangent by forward mode of an
   objective f, as Enzyme users write them (the function named where the
   derivative is requested). */
#define AD_WRAPPERS(f)                                                        \
  static void f##_gradient(real_t *v, real_t *g, const void *ctx) {          \
    __enzyme_autodiff((void *)f, enzyme_dup, v, g, enzyme_const, ctx);       \
  }                                                                           \
  static real_t f##_tangent(real_t *v, real_t *d, const void *ctx) {         \
    return __enzyme_fwddiff((void *)f, enzyme_dup, v, d, enzyme_const, ctx); \
  }
#define FNS(f) f, f##_gradient, f##_tangent

struct test {
  const char *name;
  scalar_fn f;
  gradient_fn gradient;
  tangent_fn tangent;
  const void *ctx;
  int nin;
  real_t v[MAXIN];
  double hrel;     /* the central differences' relative step; 0: none
                      (the analytic gradient checks reverse mode) */
  double tol_cd;   /* reverse against differences, relative to max |g| */
  double tol_an;   /* reverse against the analytic gradient */
  int has_analytic; /* the analytic gradient is known for inputs from */
  int analytic_from; /* analytic_from on */
  real_t analytic[MAXIN];
  double tol_fr; /* forward against reverse; 0: 1e-9 (2e-4 in float) */
};

static real_t step_of(real_t x, double hrel) {
  return (real_t)(hrel * (x != 0 ? fabs((double)x) : 1.0));
}

static void run_test(const struct test *t) {
  int before = failures;
  real_t v[MAXIN], g[MAXIN];
  memcpy(v, t->v, sizeof v);
  memset(g, 0, sizeof g);
  t->gradient(v, g, t->ctx);
  double scale = 0;
  for (int j = 0; j < t->nin; ++j)
    scale = fmax(scale, fabs((double)g[j]));
  if (scale == 0)
    scale = 1;
  for (int j = 0; j < t->nin; ++j) {
    real_t d[MAXIN] = {0};
    memcpy(v, t->v, sizeof v);
    d[j] = 1;
    real_t fw = t->tangent(v, d, t->ctx);
    check("forward vs reverse", t->name, j, fw, g[j],
          t->tol_fr ? t->tol_fr : TOL(1e-9, 2e-4), scale);
    if (t->hrel > 0) {
      /* Central differences of fourth order: the solvers' results move by
         their tolerances as the inputs do, so the steps are not small. */
      real_t h = step_of(t->v[j], t->hrel), at[4];
      for (int s = 0; s < 4; ++s) {
        real_t a[MAXIN];
        memcpy(a, t->v, sizeof a);
        a[j] += (real_t)(s < 2 ? (s + 1) : -(s - 1)) * h;
        at[s] = t->f(a, t->ctx);
      }
      double cd = (8 * ((double)at[0] - at[2]) - ((double)at[1] - at[3])) /
                  (12 * (double)h);
      check("reverse vs differences", t->name, j, g[j], cd, t->tol_cd, scale);
    }
    if (t->has_analytic && j >= t->analytic_from)
      check("reverse vs analytic", t->name, j, g[j], t->analytic[j],
            t->tol_an, scale);
  }
  if (failures != before)
    ++case_failures;
  printf("%s %s (%d inputs%s%s)\n", failures == before ? "PASS" : "FAIL",
         t->name, t->nin, t->has_analytic ? ", analytic" : "",
         t->hrel == 0 ? ", no differences" : "");
}

/* ------------------------------------------------------------------ */
/* Small dense linear algebra for the analytic values (not
 * differentiated): column-major n x n, Gaussian elimination with partial
 * pivoting, in double. */

static void solve(int n, const double *a_in, double *x, int transpose) {
  double a[MAXN * MAXN];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a[i + j * n] = transpose ? a_in[j + i * n] : a_in[i + j * n];
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(a[i + k * n]) > fabs(a[p + k * n]))
        p = i;
    for (int j = 0; j < n; ++j) {
      double s = a[k + j * n];
      a[k + j * n] = a[p + j * n];
      a[p + j * n] = s;
    }
    double s = x[k];
    x[k] = x[p];
    x[p] = s;
    for (int i = k + 1; i < n; ++i) {
      double l = a[i + k * n] / a[k + k * n];
      for (int j = k; j < n; ++j)
        a[i + j * n] -= l * a[k + j * n];
      x[i] -= l * x[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    double s = x[k];
    for (int j = k + 1; j < n; ++j)
      s -= a[k + j * n] * x[j];
    x[k] = s / a[k + k * n];
  }
}

/* (A^T A)^-1 of an m x n column-major A, into c (n x n). */
static void gram_inverse(int m, int n, const real_t *a, double *c) {
  double g[MAXN * MAXN];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int k = 0; k < m; ++k)
        s += (double)a[k + i * m] * a[k + j * m];
      g[i + j * n] = s;
    }
  for (int j = 0; j < n; ++j) {
    double e[MAXN] = {0};
    e[j] = 1;
    solve(n, g, e, 0);
    for (int i = 0; i < n; ++i)
      c[i + j * n] = e[i];
  }
}

/* ------------------------------------------------------------------ */
/* a. The building blocks on their own. */

static real_t f_enorm(const real_t *v, const void *ctx) {
  return CM(enorm)(*(const int *)ctx, v);
}
AD_WRAPPERS(f_enorm)

static void test_enorm(const char *name, const double *scales) {
  static const int n = 7;
  struct test t = {name, FNS(f_enorm), &n, n, {0}, 1e-6, TOL(1e-7, 2e-2),
                   TOL(1e-12, 1e-5), 1, 0, {0}};
  double s = 0;
  for (int j = 0; j < n; ++j) {
    t.v[j] = (real_t)(scales[j] * (0.7 + 0.5 * sin(1.3 * j + 0.2)) *
                      (j % 3 == 1 ? -1 : 1));
    s += ((double)t.v[j] / scales[0]) * ((double)t.v[j] / scales[0]);
  }
  double norm = scales[0] * sqrt(s);
  for (int j = 0; j < n; ++j)
    t.analytic[j] = (real_t)((double)t.v[j] / norm);
  if (IS_FLOAT)
    t.hrel = 1e-2;
  run_test(&t);
}

static void tests_enorm(void) {
  /* enorm sums the components below rdwarf, between rdwarf and
     rgiant / n, and above rgiant / n apart (each scaled by its largest);
     rdwarf and rgiant come from dpmpar. */
  double mid = 1, giant = 10 * sqrt((double)CM(dpmpar)(3)),
         dwarf = 2 * sqrt((double)CM(dpmpar)(2));
  double s_mid[7] = {mid, mid, mid, mid, mid, mid, mid};
  double s_giant[7] = {giant, mid, giant, dwarf, mid, giant, mid};
  double s_dwarf[7] = {dwarf, dwarf, dwarf, dwarf, dwarf, dwarf, dwarf};
  double s_mixed[7] = {mid, dwarf, mid, dwarf, dwarf, mid, dwarf};
  test_enorm("enorm middle sum", s_mid);
  test_enorm("enorm giant sum", s_giant);
  test_enorm("enorm dwarf sum", s_dwarf);
  test_enorm("enorm dwarf and middle sums", s_mixed);
}

/* qrfac: A = Q R P^T of an m x n matrix. */
struct qr_ctx {
  int m, n, pivot, what;
};

static real_t f_qrfac(const real_t *v, const void *ctx) {
  const struct qr_ctx *c = (const struct qr_ctx *)ctx;
  real_t a[MAXIN], rdiag[MAXN], acnorm[MAXN], wa[MAXN];
  int ipvt[MAXN];
  for (int k = 0; k < c->m * c->n; ++k)
    a[k] = v[k];
  CM(qrfac)(c->m, c->n, a, c->m, c->pivot, ipvt, c->n, rdiag, acnorm, wa);
  real_t out = 0;
  if (c->what == 0) { /* log |det R| = log sqrt(det A^T A) */
    for (int j = 0; j < c->n; ++j)
      out += (real_t)log(fabs((double)rdiag[j]));
  } else if (c->what == 1) { /* the column norms */
    for (int j = 0; j < c->n; ++j)
      out += weight(j) * acnorm[j];
  } else { /* everything qrfac writes */
    for (int k = 0; k < c->m * c->n; ++k)
      out += weight(k) * a[k];
    for (int j = 0; j < c->n; ++j)
      out += weight(j + 50) * rdiag[j] + weight(j + 60) * acnorm[j];
  }
  return out;
}
AD_WRAPPERS(f_qrfac)

static void fill_matrix(real_t *a, int m, int n, double shift) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      a[i + j * m] = (real_t)(sin(1.1 * i + 2.3 * j + shift) +
                              (i == j ? 1.5 : 0) + 0.2 * j);
}

static void tests_qrfac(void) {
  static struct qr_ctx ctx[6];
  const char *names[6] = {"qrfac log|det R| pivoted",
                          "qrfac log|det R| unpivoted",
                          "qrfac column norms",
                          "qrfac all outputs pivoted",
                          "qrfac all outputs unpivoted",
                          "qrfac square pivoted"};
  int what[6] = {0, 0, 1, 2, 2, 2}, pivot[6] = {1, 0, 1, 1, 0, 1};
  for (int c = 0; c < 6; ++c) {
    ctx[c] = (struct qr_ctx){c == 5 ? 4 : 7, 4, pivot[c], what[c]};
    struct test t = {names[c], FNS(f_qrfac), &ctx[c], ctx[c].m * ctx[c].n, {0},
                     1e-6, TOL(1e-6, 3e-2), TOL(1e-10, 1e-4), 0, 0, {0}};
    if (IS_FLOAT)
      t.hrel = 3e-3;
    fill_matrix(t.v, ctx[c].m, ctx[c].n, 0.1 * c);
    int m = ctx[c].m, n = ctx[c].n;
    if (what[c] == 0) { /* d log|det R| / dA = A (A^T A)^-1 */
      double ci[MAXN * MAXN];
      gram_inverse(m, n, t.v, ci);
      t.has_analytic = 1;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          double s = 0;
          for (int k = 0; k < n; ++k)
            s += (double)t.v[i + k * m] * ci[k + j * n];
          t.analytic[i + j * m] = (real_t)s;
        }
    } else if (what[c] == 1) { /* w_j A_ij / |A_j| */
      t.has_analytic = 1;
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = 0; i < m; ++i)
          s += (double)t.v[i + j * m] * t.v[i + j * m];
        for (int i = 0; i < m; ++i)
          t.analytic[i + j * m] =
              (real_t)(weight(j) * (double)t.v[i + j * m] / sqrt(s));
      }
    }
    run_test(&t);
  }
}

/* qrsolv: x minimizing |A x - b|^2 + |D x|^2 given A P = Q R, Q^T b. */
struct solv_ctx {
  int n;
  int ipvt[MAXN];
  real_t delta; /* dogleg */
};

static real_t f_qrsolv(const real_t *v, const void *ctx) {
  const struct solv_ctx *c = (const struct solv_ctx *)ctx;
  int n = c->n;
  real_t r[MAXN * MAXN], x[MAXN], sdiag[MAXN], wa[MAXN];
  memcpy(r, v, sizeof(real_t) * n * n);
  CM(qrsolv)(n, r, n, c->ipvt, v + n * n, v + n * n + n, x, sdiag, wa);
  real_t out = 0;
  for (int j = 0; j < n; ++j)
    out += weight(j) * x[j];
  return out;
}
AD_WRAPPERS(f_qrsolv)

static void fill_upper(real_t *r, int n, double shift) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      r[i + j * n] = (real_t)(j < i ? 7.5 /* not read */
                                    : (i == j ? 2.0 + 0.4 * i : 0.0) +
                                          0.6 * sin(1.7 * i + j + shift));
}

static void tests_qrsolv(void) {
  static struct solv_ctx ctx = {4, {3, 1, 4, 2}, 0};
  int n = ctx.n;
  struct test t = {"qrsolv", FNS(f_qrsolv), &ctx, n * n + 2 * n, {0}, 1e-6,
                   TOL(1e-7, 3e-2), TOL(1e-10, 1e-4), 1, 0, {0}};
  if (IS_FLOAT)
    t.hrel = 3e-3;
  real_t *r = t.v, *diag = t.v + n * n, *qtb = t.v + n * n + n;
  fill_upper(r, n, 0.3);
  for (int j = 0; j < n; ++j) {
    diag[j] = (real_t)(0.5 + 0.3 * j);
    qtb[j] = (real_t)(1.0 - 0.7 * j + 0.2 * j * j);
  }
  /* M = P R^T R P^T + D^2, x = M^-1 P R^T qtb, y = M^-1 w; with u = P^T y
     and z = P^T x: d/dqtb = R u, d/dD_k = -2 D_k x_k y_k, d/dR = (qtb -
     R z) u^T - (R u) z^T on the upper triangle. */
  double R[MAXN * MAXN] = {0}, Mm[MAXN * MAXN], x[MAXN], y[MAXN], u[MAXN],
         z[MAXN], Ru[MAXN], Rz[MAXN];
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j)
      R[i + j * n] = r[i + j * n];
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      double s = 0; /* (R^T R)_ab */
      for (int k = 0; k < n; ++k)
        s += R[k + a * n] * R[k + b * n];
      Mm[(ctx.ipvt[a] - 1) + (ctx.ipvt[b] - 1) * n] = s;
    }
  for (int j = 0; j < n; ++j)
    Mm[j + j * n] += (double)diag[j] * diag[j];
  double rtq[MAXN];
  for (int a = 0; a < n; ++a) {
    double s = 0;
    for (int k = 0; k < n; ++k)
      s += R[k + a * n] * qtb[k];
    rtq[a] = s;
  }
  for (int a = 0; a < n; ++a)
    x[ctx.ipvt[a] - 1] = rtq[a];
  solve(n, Mm, x, 0);
  for (int j = 0; j < n; ++j)
    y[j] = weight(j);
  solve(n, Mm, y, 1);
  for (int a = 0; a < n; ++a) {
    u[a] = y[ctx.ipvt[a] - 1];
    z[a] = x[ctx.ipvt[a] - 1];
  }
  for (int i = 0; i < n; ++i) {
    Ru[i] = Rz[i] = 0;
    for (int k = 0; k < n; ++k) {
      Ru[i] += R[i + k * n] * u[k];
      Rz[i] += R[i + k * n] * z[k];
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      t.analytic[i + j * n] =
          j < i ? 0
                : (real_t)(((double)qtb[i] - Rz[i]) * u[j] - Ru[i] * z[j]);
    t.analytic[n * n + i] = (real_t)(-2.0 * diag[i] * x[i] * y[i]);
    t.analytic[n * n + n + i] = (real_t)Ru[i];
  }
  run_test(&t);
}

/* lmpar: the Levenberg-Marquardt parameter and step for a radius. */
static real_t f_lmpar(const real_t *v, const void *ctx) {
  const struct solv_ctx *c = (const struct solv_ctx *)ctx;
  int n = c->n;
  real_t r[MAXN * MAXN], x[MAXN], sdiag[MAXN], wa1[MAXN], wa2[MAXN];
  memcpy(r, v, sizeof(real_t) * n * n);
  real_t par = v[n * n + 2 * n + 1];
  CM(lmpar)(n, r, n, c->ipvt, v + n * n, v + n * n + n, v[n * n + 2 * n],
            &par, x, sdiag, wa1, wa2);
  real_t out = (real_t)0.37 * par;
  for (int j = 0; j < n; ++j)
    out += weight(j) * x[j];
  return out;
}
AD_WRAPPERS(f_lmpar)

static void tests_lmpar(void) {
  static struct solv_ctx ctx = {4, {2, 4, 1, 3}, 0};
  int n = ctx.n;
  const char *names[2] = {"lmpar (parameter iterated)",
                          "lmpar (Gauss-Newton step)"};
  double deltas[2] = {0.4, 50};
  for (int c = 0; c < 2; ++c) {
    struct test t = {names[c], FNS(f_lmpar), &ctx, n * n + 2 * n + 2, {0}, 1e-6,
                     TOL(1e-6, 3e-2), 0, 0, 0, {0}};
    if (IS_FLOAT)
      t.hrel = 3e-3;
    fill_upper(t.v, n, 0.9);
    for (int j = 0; j < n; ++j) {
      t.v[n * n + j] = (real_t)(0.8 + 0.2 * j);
      t.v[n * n + n + j] = (real_t)(1.5 - 0.5 * j);
    }
    t.v[n * n + 2 * n] = (real_t)deltas[c];
    t.v[n * n + 2 * n + 1] = (real_t)0.1;
    run_test(&t);
  }
}

/* dogleg: r packed by rows. */
static real_t f_dogleg(const real_t *v, const void *ctx) {
  const struct solv_ctx *c = (const struct solv_ctx *)ctx;
  int n = c->n, lr = n * (n + 1) / 2;
  real_t x[MAXN], wa1[MAXN], wa2[MAXN];
  CM(dogleg)(n, v, lr, v + lr, v + lr + n, c->delta, x, wa1, wa2);
  real_t out = 0;
  for (int j = 0; j < n; ++j)
    out += weight(j) * x[j];
  return out;
}
AD_WRAPPERS(f_dogleg)

static void tests_dogleg(void) {
  static struct solv_ctx ctx[3] = {{4, {0}, 100}, {4, {0}, 1.0}, {4, {0}, 0.05}};
  const char *names[3] = {"dogleg Gauss-Newton step", "dogleg combination",
                          "dogleg gradient step"};
  int n = 4, lr = n * (n + 1) / 2;
  for (int c = 0; c < 3; ++c) {
    struct test t = {names[c], FNS(f_dogleg), &ctx[c], lr + 2 * n, {0}, 1e-6,
                     TOL(1e-7, 3e-2), TOL(1e-10, 1e-4), c == 0, 0, {0}};
    if (IS_FLOAT)
      t.hrel = 3e-3;
    double R[MAXN * MAXN] = {0};
    int k = 0;
    for (int i = 0; i < n; ++i)
      for (int j = i; j < n; ++j) {
        t.v[k++] = (real_t)((i == j ? 1.5 + 0.3 * i : 0) +
                            0.5 * sin(i + 2.0 * j + 0.4));
        R[i + j * n] = t.v[k - 1];
      }
    for (int j = 0; j < n; ++j) {
      t.v[lr + j] = (real_t)(1.0 + 0.25 * j);
      t.v[lr + n + j] = (real_t)(0.9 - 0.45 * j);
    }
    if (c == 0) { /* x = R^-1 qtb: d/dqtb = R^-T w, d/dR = -(R^-T w) x^T */
      double x[MAXN], y[MAXN];
      for (int j = 0; j < n; ++j) {
        x[j] = t.v[lr + n + j];
        y[j] = weight(j);
      }
      solve(n, R, x, 0);
      solve(n, R, y, 1);
      k = 0;
      for (int i = 0; i < n; ++i)
        for (int j = i; j < n; ++j)
          t.analytic[k++] = (real_t)(-y[i] * x[j]);
      for (int j = 0; j < n; ++j)
        t.analytic[lr + n + j] = (real_t)y[j];
    }
    run_test(&t);
  }
}

/* The residuals of a fit: a decay plus a sine at M abscissae. */
struct fit_data {
  int m;
  const real_t *t, *y;
};

static real_t model(real_t t, const real_t *x) {
  return (real_t)((double)x[0] * exp(-(double)x[1] * t) +
                  (double)x[2] * sin((double)x[3] * t));
}

static void model_gradient(real_t t, const real_t *x, real_t *g) {
  double e = exp(-(double)x[1] * t);
  g[0] = (real_t)e;
  g[1] = (real_t)(-(double)x[0] * t * e);
  g[2] = (real_t)sin((double)x[3] * t);
  g[3] = (real_t)((double)x[2] * t * cos((double)x[3] * t));
}

static int fcn_fit(void *p, int m, int n, const real_t *x, real_t *fvec,
                   int iflag) {
  const struct fit_data *d = (const struct fit_data *)p;
  for (int i = 0; i < m; ++i)
    fvec[i] = model(d->t[i], x) - d->y[i];
  (void)n;
  (void)iflag;
  return 0;
}

static void fit_inputs(real_t *t, real_t *y) {
  for (int i = 0; i < M; ++i) {
    double ti = 0.25 * i + 0.05 * sin(3.0 * i);
    t[i] = (real_t)ti;
    y[i] = (real_t)(2.5 * exp(-0.7 * ti) + 0.8 * sin(1.3 * ti) +
                    0.03 * sin(7.1 * i + 0.4));
  }
}

struct fd_ctx {
  int banded;
  double epsfcn;
};

/* fdjac2 at x of the fit's residuals; v = x, t, y. */
static real_t f_fdjac2(const real_t *v, const void *ctx) {
  const struct fd_ctx *c = (const struct fd_ctx *)ctx;
  struct fit_data d = {M, v + NFIT, v + NFIT + M};
  real_t x[NFIT], fvec[M], fjac[M * NFIT], wa[M];
  memcpy(x, v, sizeof x);
  fcn_fit(&d, M, NFIT, x, fvec, 1);
  CM(fdjac2)(fcn_fit, &d, M, NFIT, x, fvec, fjac, M, (real_t)c->epsfcn, wa);
  real_t out = 0;
  for (int k = 0; k < M * NFIT; ++k)
    out += weight(k) * fjac[k];
  return out;
}
AD_WRAPPERS(f_fdjac2)

/* Broyden's tridiagonal system with right-hand sides theta:
   f_i = (3 - 2 x_i) x_i - x_{i-1} - 2 x_{i+1} + theta_i. */
struct sys_data {
  int n;
  const real_t *theta;
};

static void sys_eval(const real_t *x, real_t *f, const struct sys_data *s) {
  for (int i = 0; i < s->n; ++i) {
    real_t l = i > 0 ? x[i - 1] : 0, r = i + 1 < s->n ? x[i + 1] : 0;
    f[i] = (3 - 2 * x[i]) * x[i] - l - 2 * r + s->theta[i];
  }
}

static int fcn_sys(void *p, int n, const real_t *x, real_t *fvec,
                   int iflag) {
  sys_eval(x, fvec, (const struct sys_data *)p);
  (void)n;
  (void)iflag;
  return 0;
}

static void sys_jacobian(int n, const real_t *x, double *j) {
  for (int a = 0; a < n * n; ++a)
    j[a] = 0;
  for (int i = 0; i < n; ++i) {
    j[i + i * n] = 3 - 4.0 * x[i];
    if (i > 0)
      j[i + (i - 1) * n] = -1;
    if (i + 1 < n)
      j[i + (i + 1) * n] = -2;
  }
}

/* fdjac1 at x of the system; v = x, theta. */
static real_t f_fdjac1(const real_t *v, const void *ctx) {
  const struct fd_ctx *c = (const struct fd_ctx *)ctx;
  struct sys_data s = {NSYS, v + NSYS};
  real_t x[NSYS], fvec[NSYS], fjac[NSYS * NSYS], wa1[NSYS], wa2[NSYS];
  memcpy(x, v, sizeof x);
  fcn_sys(&s, NSYS, x, fvec, 1);
  int ml = c->banded ? 1 : NSYS - 1, mu = ml;
  CM(fdjac1)(fcn_sys, &s, NSYS, x, fvec, fjac, NSYS, ml, mu,
             (real_t)c->epsfcn, wa1, wa2);
  real_t out = 0;
  for (int k = 0; k < NSYS * NSYS; ++k)
    out += weight(k) * fjac[k];
  return out;
}
AD_WRAPPERS(f_fdjac1)

static void tests_fdjac(void) {
  /* A difference quotient's derivative: the data cancel (d/dy = 0 and
     d/dtheta = 0 exactly), the step h = sqrt(epsfcn) |x_j| moves with x. */
  static struct fd_ctx c2 = {0, 1e-6}, c1d = {0, 1e-6}, c1b = {1, 1e-6};
  struct test t = {"fdjac2", FNS(f_fdjac2), &c2, NFIT + 2 * M, {0}, 1e-5,
                   TOL(1e-6, 5e-2), 0, 0, 0, {0}};
  if (IS_FLOAT) {
    c2.epsfcn = 1e-4;
    t.hrel = 1e-2;
  }
  real_t x0[NFIT] = {2.3, 0.6, 0.9, 1.2};
  memcpy(t.v, x0, sizeof x0);
  fit_inputs(t.v + NFIT, t.v + NFIT + M);
  run_test(&t);
  {
    real_t v[MAXIN], g[MAXIN] = {0};
    memcpy(v, t.v, sizeof v);
    f_fdjac2_gradient(v, g, &c2);
    int before = failures;
    for (int i = 0; i < M; ++i)
      check("d/dy of a difference quotient", "fdjac2", i, g[NFIT + M + i], 0,
            TOL(1e-9, 1e-4), 1);
    printf("%s fdjac2 data cancel\n", failures == before ? "PASS" : "FAIL");
    if (failures != before)
      ++case_failures;
  }
  struct fd_ctx *cs[2] = {&c1d, &c1b};
  const char *names[2] = {"fdjac1 dense", "fdjac1 banded (ml = mu = 1)"};
  for (int c = 0; c < 2; ++c) {
    if (IS_FLOAT)
      cs[c]->epsfcn = 1e-4;
    struct test u = {names[c], FNS(f_fdjac1), cs[c], 2 * NSYS, {0}, 1e-5,
                     TOL(1e-6, 5e-2), TOL(1e-9, 1e-4), 1, 0, {0}};
    if (IS_FLOAT)
      u.hrel = 1e-2;
    for (int i = 0; i < NSYS; ++i) {
      u.v[i] = (real_t)(-0.8 + 0.1 * i);
      u.v[NSYS + i] = (real_t)(1 + 0.1 * sin(i));
    }
    /* f_i's difference quotients: ((3 - 2(x+h)) (x+h) - (3 - 2x) x) / h
       = 3 - 4x - 2h on the diagonal, with h = sqrt(eps) |x|; the rest is
       constant. d/dx_i = -4 - 2 sqrt(eps) sign(x_i) weighted by the
       diagonal's weight; d/dtheta = 0. */
    double se = sqrt(cs[c]->epsfcn);
    for (int i = 0; i < NSYS; ++i) {
      double sg = u.v[i] > 0 ? 1 : -1;
      u.analytic[i] = (real_t)(weight(i + i * NSYS) * (-4 - 2 * se * sg));
    }
    run_test(&u);
  }
}

/* covar and covar1: (A^T A)^-1 from qrfac's R and P. */
struct cov_ctx {
  int m, n, one;
};

static real_t f_covar(const real_t *v, const void *ctx) {
  const struct cov_ctx *c = (const struct cov_ctx *)ctx;
  int m = c->m, n = c->n;
  real_t a[MAXIN], rdiag[MAXN], acnorm[MAXN], wa[MAXN];
  int ipvt[MAXN];
  memcpy(a, v, sizeof(real_t) * m * n);
  CM(qrfac)(m, n, a, m, 1, ipvt, n, rdiag, acnorm, wa);
  /* qrfac leaves R's strict upper triangle in a and its diagonal apart. */
  for (int j = 0; j < n; ++j)
    a[j + j * m] = rdiag[j];
  if (c->one)
    CM(covar1)(m, n, v[m * n], a, m, ipvt, (real_t)TOL(1e-14, 1e-6), wa);
  else
    CM(covar)(n, a, m, ipvt, (real_t)TOL(1e-14, 1e-6), wa);
  real_t out = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      out += weight(i + 3 * j) * a[i + j * m];
  return out;
}
AD_WRAPPERS(f_covar)

static void tests_covar(void) {
  static struct cov_ctx ctx[2] = {{7, 4, 0}, {7, 4, 1}};
  const char *names[2] = {"covar", "covar1 (scaled by fsumsq / (m - n))"};
  for (int c = 0; c < 2; ++c) {
    int m = ctx[c].m, n = ctx[c].n;
    struct test t = {names[c], FNS(f_covar), &ctx[c], m * n + c, {0}, 1e-6,
                     TOL(1e-6, 3e-2), TOL(1e-9, 1e-3), 1, 0, {0}};
    if (IS_FLOAT)
      t.hrel = 3e-3;
    fill_matrix(t.v, m, n, 0.5 + c);
    double scale = 1;
    if (c) {
      t.v[m * n] = (real_t)0.8;
      scale = 0.8 / (m - n);
    }
    /* C = (A^T A)^-1, f = scale sum W_ij C_ij: d/dA = -scale A C (W +
       W^T) C, d/dfsumsq = f / fsumsq. */
    double C[MAXN * MAXN], S[MAXN * MAXN], T[MAXN * MAXN];
    gram_inverse(m, n, t.v, C);
    double f0 = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        S[i + j * n] = weight(i + 3 * j) + weight(j + 3 * i);
        f0 += weight(i + 3 * j) * C[i + j * n];
      }
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0; /* (C S C)_ij */
        for (int k = 0; k < n; ++k)
          for (int l = 0; l < n; ++l)
            s += C[i + k * n] * S[k + l * n] * C[l + j * n];
        T[i + j * n] = s;
      }
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int k = 0; k < n; ++k)
          s += (double)t.v[i + k * m] * T[k + j * n];
        t.analytic[i + j * m] = (real_t)(-scale * s);
      }
    if (c)
      t.analytic[m * n] = (real_t)(f0 / (m - n));
    run_test(&t);
  }
}

/* ------------------------------------------------------------------ */
/* b. Jacobians by AD inside the solvers' callbacks. */

/* The residuals as the AD sees them: all of them, or row i. */
static void fit_residuals(const real_t *x, real_t *fvec,
                          const struct fit_data *d) {
  for (int i = 0; i < d->m; ++i)
    fvec[i] = model(d->t[i], x) - d->y[i];
}

static real_t fit_residual(const real_t *x, const struct fit_data *d,
                           int i) {
  return model(d->t[i], x) - d->y[i];
}

enum jac_mode { JAC_HAND, JAC_FORWARD, JAC_REVERSE };

struct fit_ad {
  struct fit_data d;
  int mode;
  int checked; /* compare with the hand-written Jacobian at each call */
  int calls, mismatches;
};

/* Column j of the Jacobian by one forward pass (the tangent of fvec is
   written straight into fjac's column), or row i by one reverse pass. */
static void ad_jacobian(struct fit_ad *a, int m, int n, const real_t *x,
                        real_t *fjac, int ldfjac) {
  if (a->mode == JAC_FORWARD) {
    for (int j = 0; j < n; ++j) {
      real_t dx[NFIT] = {0}, fv[M];
      dx[j] = 1;
      __enzyme_fwddiff_void((void *)fit_residuals, enzyme_dup, x, dx,
                            enzyme_dupnoneed, fv, fjac + j * ldfjac,
                            enzyme_const, &a->d);
    }
  } else if (a->mode == JAC_REVERSE) {
    for (int i = 0; i < m; ++i) {
      real_t gx[NFIT] = {0};
      __enzyme_autodiff((void *)fit_residual, enzyme_dup, x, gx,
                        enzyme_const, &a->d, enzyme_const, i);
      for (int j = 0; j < n; ++j)
        fjac[i + j * ldfjac] = gx[j];
    }
  } else {
    for (int i = 0; i < m; ++i) {
      real_t g[NFIT];
      model_gradient(a->d.t[i], x, g);
      for (int j = 0; j < n; ++j)
        fjac[i + j * ldfjac] = g[j];
    }
  }
  if (a->checked) {
    ++a->calls;
    for (int i = 0; i < m; ++i) {
      real_t g[NFIT];
      model_gradient(a->d.t[i], x, g);
      for (int j = 0; j < n; ++j)
        if (fabs((double)fjac[i + j * ldfjac] - g[j]) >
            TOL(1e-12, 1e-5) * (1 + fabs((double)g[j])))
          ++a->mismatches;
    }
  }
}

static int fcnder_fit(void *p, int m, int n, const real_t *x, real_t *fvec,
                      real_t *fjac, int ldfjac, int iflag) {
  struct fit_ad *a = (struct fit_ad *)p;
  if (iflag == 1)
    fit_residuals(x, fvec, &a->d);
  else if (iflag == 2)
    ad_jacobian(a, m, n, x, fjac, ldfjac);
  return 0;
}

/* lmstr asks for row iflag - 2. */
static int fcnderstr_fit(void *p, int m, int n, const real_t *x,
                         real_t *fvec, real_t *fjrow, int iflag) {
  struct fit_ad *a = (struct fit_ad *)p;
  if (iflag == 1) {
    fit_residuals(x, fvec, &a->d);
    return 0;
  }
  int i = iflag - 2;
  if (a->mode == JAC_REVERSE) {
    for (int j = 0; j < n; ++j)
      fjrow[j] = 0;
    __enzyme_autodiff((void *)fit_residual, enzyme_dup, x, fjrow,
                      enzyme_const, &a->d, enzyme_const, i);
  } else {
    model_gradient(a->d.t[i], x, fjrow);
  }
  if (a->checked) {
    real_t g[NFIT];
    model_gradient(a->d.t[i], x, g);
    ++a->calls;
    for (int j = 0; j < n; ++j)
      if (fabs((double)fjrow[j] - g[j]) >
          TOL(1e-12, 1e-5) * (1 + fabs((double)g[j])))
        ++a->mismatches;
  }
  (void)m;
  return 0;
}

#ifndef FIT_FTOL
#define FIT_FTOL 0
#endif
#ifndef FIT_XTOL
#define FIT_XTOL TOL(1e-14, 1e-6)
#endif

#ifndef HREL_LMDIF
#define HREL_LMDIF 1e-3
#endif
#ifndef HREL_LMDER
#define HREL_LMDER 1e-3
#endif

enum solver { S_LMDIF, S_LMDER, S_LMSTR };

struct fit_work {
  real_t fvec[M], fjac[M * NFIT], diag[NFIT], qtf[NFIT], wa1[NFIT],
      wa2[NFIT], wa3[NFIT], wa4[M];
  int ipvt[NFIT];
};

/* Fits x (in place) with the solver; returns its info. */
static int run_fit(int solver, struct fit_ad *a, real_t *x,
                   struct fit_work *w) {
  int nfev = 0, njev = 0;
  /* ftol stops a fit whose sum of squares no longer falls: near the
     minimum the sum is flat, its solution then only about sqrt(ftol)
     accurate, and the path of the iterations changes with the inputs.
     The fits stop on the step's size instead. */
  real_t ftol = (real_t)FIT_FTOL, xtol = (real_t)FIT_XTOL;
  int maxfev = 4000;
  if (solver == S_LMDIF)
    return CM(lmdif)(fcn_fit, &a->d, M, NFIT, x, w->fvec, ftol, xtol, 0,
                     maxfev, 0, w->diag, 1, 100, 0, &nfev, w->fjac, M,
                     w->ipvt, w->qtf, w->wa1, w->wa2, w->wa3, w->wa4);
  if (solver == S_LMDER)
    return CM(lmder)(fcnder_fit, a, M, NFIT, x, w->fvec, w->fjac, M, ftol,
                     xtol, 0, maxfev, w->diag, 1, 100, 0, &nfev, &njev,
                     w->ipvt, w->qtf, w->wa1, w->wa2, w->wa3, w->wa4);
  return CM(lmstr)(fcnderstr_fit, a, M, NFIT, x, w->fvec, w->fjac, NFIT,
                   ftol, xtol, 0, maxfev, w->diag, 1, 100, 0, &nfev, &njev,
                   w->ipvt, w->qtf, w->wa1, w->wa2, w->wa3, w->wa4);
}

/* hybrj's callback: the Jacobian by forward mode, column by column. */
struct sys_ad {
  struct sys_data s;
  int mode;
  int checked, calls, mismatches;
};

static void sys_ad_jacobian(struct sys_ad *a, int n, const real_t *x,
                            real_t *fjac, int ldfjac) {
  if (a->mode == JAC_FORWARD) {
    for (int j = 0; j < n; ++j) {
      real_t dx[NSYS] = {0}, fv[NSYS];
      dx[j] = 1;
      __enzyme_fwddiff_void((void *)sys_eval, enzyme_dup, x, dx,
                            enzyme_dupnoneed, fv, fjac + j * ldfjac,
                            enzyme_const, &a->s);
    }
  } else {
    double j[NSYS * NSYS];
    sys_jacobian(n, x, j);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        fjac[r + c * ldfjac] = (real_t)j[r + c * n];
  }
  if (a->checked) {
    double j[NSYS * NSYS];
    sys_jacobian(n, x, j);
    ++a->calls;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        if (fabs((double)fjac[r + c * ldfjac] - j[r + c * n]) > 1e-12)
          ++a->mismatches;
  }
}

static int fcnder_sys(void *p, int n, const real_t *x, real_t *fvec,
                      real_t *fjac, int ldfjac, int iflag) {
  struct sys_ad *a = (struct sys_ad *)p;
  if (iflag == 1)
    sys_eval(x, fvec, &a->s);
  else if (iflag == 2)
    sys_ad_jacobian(a, n, x, fjac, ldfjac);
  return 0;
}

struct sys_work {
  real_t fvec[NSYS], fjac[NSYS * NSYS], diag[NSYS], r[NSYS * (NSYS + 1) / 2],
      qtf[NSYS], wa1[NSYS], wa2[NSYS], wa3[NSYS], wa4[NSYS];
};

enum { S_HYBRD_DENSE, S_HYBRD_BANDED, S_HYBRJ };

static int run_sys(int solver, struct sys_ad *a, real_t *x,
                   struct sys_work *w) {
  int nfev = 0, njev = 0, n = NSYS;
  real_t tol = (real_t)TOL(1e-13, 1e-6);
  if (solver == S_HYBRJ)
    return CM(hybrj)(fcnder_sys, a, n, x, w->fvec, w->fjac, n, tol, 2000,
                     w->diag, 1, 100, 0, &nfev, &njev, w->r,
                     n * (n + 1) / 2, w->qtf, w->wa1, w->wa2, w->wa3, w->wa4);
  int ml = solver == S_HYBRD_BANDED ? 1 : n - 1;
  return CM(hybrd)(fcn_sys, &a->s, n, x, w->fvec, tol, 2000, ml, ml, 0,
                   w->diag, 1, 100, 0, &nfev, w->fjac, n, w->r,
                   n * (n + 1) / 2, w->qtf, w->wa1, w->wa2, w->wa3, w->wa4);
}

static void report(const char *name, int before) {
  if (failures != before)
    ++case_failures;
  printf("%s %s\n", failures == before ? "PASS" : "FAIL", name);
}

static void part_jacobian(void) {
  real_t t[M], y[M];
  fit_inputs(t, y);
  const real_t x0[NFIT] = {2.0, 0.5, 1.0, 1.1};
  real_t ref[NFIT];
  struct fit_work w;
  {
    struct fit_ad a = {{M, t, y}, JAC_HAND, 0, 0, 0};
    memcpy(ref, x0, sizeof ref);
    int info = run_fit(S_LMDIF, &a, ref, &w);
    int before = failures;
    check("info", "lmdif reference fit", 0, info >= 1 && info <= 4, 1, 0, 0);
    report("lmdif reference fit", before);
  }
  struct {
    const char *name;
    int solver, mode;
  } fits[] = {{"lmder, Jacobian by forward mode per column", S_LMDER,
               JAC_FORWARD},
              {"lmder, Jacobian by reverse mode per row", S_LMDER,
               JAC_REVERSE},
              {"lmder, hand-written Jacobian", S_LMDER, JAC_HAND},
              {"lmstr, Jacobian rows by reverse mode", S_LMSTR, JAC_REVERSE}};
  for (unsigned c = 0; c < sizeof fits / sizeof fits[0]; ++c) {
    struct fit_ad a = {{M, t, y}, fits[c].mode, 1, 0, 0};
    real_t x[NFIT];
    memcpy(x, x0, sizeof x);
    int before = failures;
    int info = run_fit(fits[c].solver, &a, x, &w);
    check("info", fits[c].name, 0, info >= 1 && info <= 4, 1, 0, 0);
    check("Jacobian calls with a wrong entry", fits[c].name, a.calls,
          a.mismatches, 0, 0, 0);
    check("callbacks asked for the Jacobian", fits[c].name, 0, a.calls > 0, 1,
          0, 0);
    for (int k = 0; k < NFIT; ++k)
      check("solution vs lmdif's", fits[c].name, k, x[k], ref[k],
            TOL(1e-8, 1e-3), 1);
    report(fits[c].name, before);
  }

  real_t theta[NSYS];
  for (int i = 0; i < NSYS; ++i)
    theta[i] = (real_t)(1 + 0.1 * sin(i));
  real_t sref[NSYS], xs[NSYS];
  struct sys_work sw;
  struct sys_ad sa = {{NSYS, theta}, JAC_HAND, 0, 0, 0};
  for (int i = 0; i < NSYS; ++i)
    sref[i] = -1;
  int before = failures;
  int info = run_sys(S_HYBRD_DENSE, &sa, sref, &sw);
  check("info", "hybrd reference", 0, info == 1, 1, 0, 0);
  report("hybrd reference solve", before);
  before = failures;
  for (int i = 0; i < NSYS; ++i)
    xs[i] = -1;
  info = run_sys(S_HYBRD_BANDED, &sa, xs, &sw);
  check("info", "hybrd banded", 0, info == 1, 1, 0, 0);
  for (int k = 0; k < NSYS; ++k)
    check("solution vs dense hybrd's", "hybrd banded", k, xs[k], sref[k],
          TOL(1e-9, 1e-4), 1);
  report("hybrd with a banded difference Jacobian", before);
  before = failures;
  struct sys_ad sj = {{NSYS, theta}, JAC_FORWARD, 1, 0, 0};
  for (int i = 0; i < NSYS; ++i)
    xs[i] = -1;
  info = run_sys(S_HYBRJ, &sj, xs, &sw);
  check("info", "hybrj", 0, info == 1, 1, 0, 0);
  check("Jacobian calls with a wrong entry", "hybrj", sj.calls, sj.mismatches,
        0, 0, 0);
  for (int k = 0; k < NSYS; ++k)
    check("solution vs hybrd's", "hybrj", k, xs[k], sref[k], TOL(1e-9, 1e-4),
          1);
  report("hybrj, Jacobian by forward mode per column", before);
}

/* ------------------------------------------------------------------ */
/* c. Through the solvers. */

struct through_ctx {
  int solver, mode;
  double wnorm;
};

/* v = t[M], y[M], x0[NFIT]: sum_k w_k x*_k + wnorm |r(x*)|. */
static real_t f_fit(const real_t *v, const void *ctx) {
  const struct through_ctx *c = (const struct through_ctx *)ctx;
  struct fit_ad a = {{M, v, v + M}, c->mode, 0, 0, 0};
  struct fit_work w;
  real_t x[NFIT];
  memcpy(x, v + 2 * M, sizeof x);
  run_fit(c->solver, &a, x, &w);
  real_t out = (real_t)c->wnorm * CM(enorm)(M, w.fvec);
  for (int k = 0; k < NFIT; ++k)
    out += weight(k) * x[k];
  return out;
}
AD_WRAPPERS(f_fit)

/* d/dy of w.x* + wnorm |r| at the optimum: J H^-1 w - wnorm r / |r|,
   H = J^T J + sum_i r_i d2 model(t_i). */
static void fit_analytic(const real_t *v, double wnorm, real_t *g) {
  real_t x[NFIT];
  struct fit_ad a = {{M, v, v + M}, JAC_HAND, 0, 0, 0};
  struct fit_work w;
  memcpy(x, v + 2 * M, sizeof x);
  run_fit(S_LMDER, &a, x, &w);
  double H[NFIT * NFIT] = {0}, J[M * NFIT], r[M], rn = 0;
  for (int i = 0; i < M; ++i) {
    real_t gi[NFIT];
    double ti = v[i];
    model_gradient(v[i], x, gi);
    r[i] = (double)model(v[i], x) - v[M + i];
    rn += r[i] * r[i];
    for (int k = 0; k < NFIT; ++k)
      J[i + k * M] = gi[k];
    double e = exp(-(double)x[1] * ti), s = sin((double)x[3] * ti),
           co = cos((double)x[3] * ti);
    H[0 + 1 * NFIT] += r[i] * -ti * e;
    H[1 + 0 * NFIT] += r[i] * -ti * e;
    H[1 + 1 * NFIT] += r[i] * (double)x[0] * ti * ti * e;
    H[2 + 3 * NFIT] += r[i] * ti * co;
    H[3 + 2 * NFIT] += r[i] * ti * co;
    H[3 + 3 * NFIT] += r[i] * -(double)x[2] * ti * ti * s;
  }
  rn = sqrt(rn);
  for (int k = 0; k < NFIT; ++k)
    for (int l = 0; l < NFIT; ++l)
      for (int i = 0; i < M; ++i)
        H[k + l * NFIT] += J[i + k * M] * J[i + l * M];
  double u[NFIT];
  for (int k = 0; k < NFIT; ++k)
    u[k] = weight(k);
  solve(NFIT, H, u, 0);
  for (int i = 0; i < M; ++i) {
    double s = 0;
    for (int k = 0; k < NFIT; ++k)
      s += J[i + k * M] * u[k];
    g[M + i] = (real_t)(s - wnorm * r[i] / rn);
  }
}

static void part_fits(void) {
  static struct through_ctx ctx[] = {
      {S_LMDIF, JAC_HAND, 0.7},    {S_LMDER, JAC_HAND, 0.7},
      {S_LMDER, JAC_FORWARD, 0.7}, {S_LMDER, JAC_REVERSE, 0.7},
      {S_LMSTR, JAC_HAND, 0.7},    {S_LMSTR, JAC_REVERSE, 0.7}};
  const char *names[] = {
      "through lmdif (difference Jacobian)",
      "through lmder (hand-written Jacobian)",
      "through lmder (Jacobian by forward mode inside)",
      "through lmder (Jacobian by reverse mode inside)",
      "through lmstr (hand-written rows)",
      "through lmstr (rows by reverse mode inside)"};
  const char *only = getenv("CMINPACK_ONLY");
  for (unsigned c = 0; c < sizeof ctx / sizeof ctx[0]; ++c) {
    if (only && !strstr(names[c], only))
      continue;
    struct test t = {names[c], FNS(f_fit), &ctx[c], 2 * M + NFIT, {0}, 1e-4,
                     TOL(1e-4, 5e-2), TOL(1e-6, 2e-2), 1, M, {0}};
    if (ctx[c].solver == S_LMDIF) {
      /* Its difference Jacobian's rounding errors (about 1e-8 in double,
         1e-4 in float) move the solution as the inputs move and enter the
         derivatives' last digits. In float the differences are noise: the
         analytic values check it. */
      t.hrel = IS_FLOAT ? 0 : HREL_LMDIF;
      t.tol_cd = 1e-4;
      t.tol_fr = TOL(1e-6, 1e-2);
    } else {
      t.hrel = IS_FLOAT ? 1e-2 : HREL_LMDER;
    }
    fit_inputs(t.v, t.v + M);
    const real_t x0[NFIT] = {2.0, 0.5, 1.0, 1.1};
    memcpy(t.v + 2 * M, x0, sizeof x0);
    /* The analytic check covers y and x0 (a converged fit forgets it);
       the abscissae are checked against differences and forward mode. */
    fit_analytic(t.v, ctx[c].wnorm, t.analytic);
    for (int k = 0; k < NFIT; ++k)
      t.analytic[2 * M + k] = 0;
    run_test(&t);
  }
}

/* A straight line through lmdif: d(w . x*)/dy = w^T (A^T A)^-1 A^T. */
static int fcn_line(void *p, int m, int n, const real_t *x, real_t *fvec,
                    int iflag) {
  const struct fit_data *d = (const struct fit_data *)p;
  for (int i = 0; i < m; ++i)
    fvec[i] = x[0] + x[1] * d->t[i] + x[2] * d->t[i] * d->t[i] - d->y[i];
  (void)n;
  (void)iflag;
  return 0;
}

static real_t f_line(const real_t *v, const void *ctx) {
  struct fit_data d = {M, v, v + M};
  real_t x[3] = {v[2 * M], v[2 * M + 1], v[2 * M + 2]}, fvec[M],
         fjac[M * 3], diag[3], qtf[3], wa1[3], wa2[3], wa3[3], wa4[M];
  int ipvt[3], nfev;
  real_t tol = (real_t)TOL(1e-13, 1e-6);
  CM(lmdif)(fcn_line, &d, M, 3, x, fvec, tol, tol, 0, 2000, 0, diag, 1, 100,
            0, &nfev, fjac, M, ipvt, qtf, wa1, wa2, wa3, wa4);
  (void)ctx;
  return weight(0) * x[0] + weight(1) * x[1] + weight(2) * x[2];
}
AD_WRAPPERS(f_line)

static void part_line(void) {
  static int dummy;
  struct test t = {"through lmdif, a quadratic (closed form)", FNS(f_line),
                   &dummy,
                   2 * M + 3, {0}, 1e-4, TOL(1e-5, 5e-2), TOL(1e-7, 2e-2), 1,
                   0, {0}};
  /* lmdif (see part_fits); the fit is linear in y, so the steps can be
     longer than part_fits'. */
  t.hrel = IS_FLOAT ? 0 : 1e-2;
  t.tol_cd = 1e-4;
  t.tol_fr = TOL(1e-6, 1e-2);
  fit_inputs(t.v, t.v + M);
  t.v[2 * M] = 1;
  t.v[2 * M + 1] = (real_t)-0.5;
  t.v[2 * M + 2] = (real_t)0.8;
  real_t a[M * 3];
  for (int i = 0; i < M; ++i) {
    a[i] = 1;
    a[i + M] = t.v[i];
    a[i + 2 * M] = t.v[i] * t.v[i];
  }
  double C[9], u[3], xs[3] = {0, 0, 0};
  gram_inverse(M, 3, a, C);
  for (int k = 0; k < 3; ++k) {
    u[k] = 0;
    for (int l = 0; l < 3; ++l)
      u[k] += C[k + 3 * l] * weight(l);
  }
  /* x* = C A^T y; d/dt_i: r_i = x . a_i - y_i, d x* = -C (da^T r + A^T da
     x) ... with da_i = (0, 1, 2 t_i): d(w.x)/dt_i = -(u . da_i) r_i -
     (a_i . u)(x . da_i). */
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < M; ++i)
      for (int l = 0; l < 3; ++l)
        xs[k] += C[k + 3 * l] * a[i + l * M] * t.v[M + i];
  for (int i = 0; i < M; ++i) {
    double au = u[0] + u[1] * t.v[i] + u[2] * t.v[i] * t.v[i];
    double r = xs[0] + xs[1] * t.v[i] + xs[2] * t.v[i] * t.v[i] - t.v[M + i];
    double ud = u[1] + 2 * u[2] * t.v[i], xd = xs[1] + 2 * xs[2] * t.v[i];
    t.analytic[i] = (real_t)(-ud * r - au * xd);
    t.analytic[M + i] = (real_t)au;
  }
  run_test(&t);
}

/* Through hybrd / hybrj: x*(theta) with F(x*, theta) = 0; d(w.x*)/dtheta
   = -J^-T w, the starting point forgotten. v = theta[NSYS], x0[NSYS]. */
struct sys_through {
  int solver, mode;
};

static real_t f_sys(const real_t *v, const void *ctx) {
  const struct sys_through *c = (const struct sys_through *)ctx;
  struct sys_ad a = {{NSYS, v}, c->mode, 0, 0, 0};
  struct sys_work w;
  real_t x[NSYS];
  memcpy(x, v + NSYS, sizeof x);
  run_sys(c->solver, &a, x, &w);
  real_t out = 0;
  for (int k = 0; k < NSYS; ++k)
    out += weight(k) * x[k];
  return out;
}
AD_WRAPPERS(f_sys)

static void part_systems(void) {
  static struct sys_through ctx[] = {{S_HYBRD_DENSE, JAC_HAND},
                                     {S_HYBRD_BANDED, JAC_HAND},
                                     {S_HYBRJ, JAC_HAND},
                                     {S_HYBRJ, JAC_FORWARD}};
  const char *names[] = {"through hybrd (dense difference Jacobian)",
                         "through hybrd (banded difference Jacobian)",
                         "through hybrj (hand-written Jacobian)",
                         "through hybrj (Jacobian by forward mode inside)"};
  const char *only = getenv("CMINPACK_ONLY");
  for (unsigned c = 0; c < sizeof ctx / sizeof ctx[0]; ++c) {
    if (only && !strstr(names[c], only))
      continue;
    struct test t = {names[c], FNS(f_sys), &ctx[c], 2 * NSYS, {0}, 1e-4,
                     TOL(1e-6, 5e-2), TOL(1e-7, 2e-2), 1, 0, {0}};
    if (IS_FLOAT)
      t.hrel = 1e-2;
    for (int i = 0; i < NSYS; ++i) {
      t.v[i] = (real_t)(1 + 0.1 * sin(i));
      t.v[NSYS + i] = -1;
    }
    struct sys_ad a = {{NSYS, t.v}, JAC_HAND, 0, 0, 0};
    struct sys_work w;
    real_t x[NSYS];
    memcpy(x, t.v + NSYS, sizeof x);
    run_sys(S_HYBRJ, &a, x, &w);
    double J[NSYS * NSYS], y[NSYS];
    sys_jacobian(NSYS, x, J);
    for (int k = 0; k < NSYS; ++k)
      y[k] = weight(k);
    solve(NSYS, J, y, 1);
    for (int k = 0; k < NSYS; ++k) {
      t.analytic[k] = (real_t)-y[k];
      t.analytic[NSYS + k] = 0;
    }
    run_test(&t);
  }
}

static void part_parts(void) {
  tests_enorm();
  tests_qrfac();
  tests_qrsolv();
  tests_lmpar();
  tests_dogleg();
  tests_fdjac();
  tests_covar();
}

int main(int argc, char **argv) {
  const char *part = argc > 1 ? argv[1] : "all";
  int all = !strcmp(part, "all");
  if (all || !strcmp(part, "parts"))
    part_parts();
  if (all || !strcmp(part, "jacobian"))
    part_jacobian();
  if (all || !strcmp(part, "solver")) {
    part_line();
    part_fits();
    part_systems();
  }
  printf("%s: %d checks, %d failed (%d cases failed)\n", part, checks,
         failures, case_failures);
  return failures != 0;
}

#ifdef CMINPACK_ONE_FILE
/* cminpack's sources, unchanged, in this file: the derivatives are made
   when this file is compiled. */
#include "enorm.c"
#include "dpmpar.c"
#include "qrfac.c"
#include "qrsolv.c"
#include "lmpar.c"
#include "dogleg.c"
#include "fdjac1.c"
#include "fdjac2.c"
#include "covar.c"
#include "covar1.c"
#include "qform.c"
#include "r1updt.c"
#include "r1mpyq.c"
#include "rwupdt.c"
#include "lmdif.c"
#include "lmder.c"
#include "lmstr.c"
#include "hybrd.c"
#include "hybrj.c"
#endif
