/* Derivatives through the GNU Scientific Library (any public copy of its
 * sources, e.g. github.com/ampl/gsl): the files that gsl.sh lists compiled
 * unchanged, each on its own, the derivatives of their functions made at
 * link time. GSL is written the way numerical C is: a function and its
 * parameters passed as a struct (gsl_function, gsl_odeiv2_system) with a
 * `void *params`, stepper and interpolation types that are static tables
 * of function pointers, error handlers called through a global pointer,
 * matrix and vector views with strides, permutations, Chebyshev series
 * held in structs that point to their coefficients, results with error
 * estimates (gsl_sf_result).
 *
 * Every case is a function of an input vector x, differentiated in both
 * modes and checked three ways: reverse mode against central differences
 * (every coordinate), forward mode against reverse mode (every
 * coordinate), and reverse mode against the derivative of the exact
 * solution, written out below without GSL's differentiated code:
 *  1. gsl_odeiv2 with its driver (rk4 in fixed steps and with step
 *     doubling, rkf45, rk8pd): a damped oscillator's x(1) + 0.3 v(1) as a
 *     function of omega and zeta (passed through `void *params`) and of
 *     the initial state, against the closed form's derivatives;
 *  2. gsl_integration_qag (Gauss-Kronrod 15 and 61 points, bisection) and
 *     qags (with the epsilon algorithm's extrapolation) as functions of
 *     the integrand's parameters and of a limit;
 *  3. gsl_sf: gamma, lngamma, J0, J1, erf, erfc, E1, Ei, psi at points
 *     that take each function's branches (series, Chebyshev fits,
 *     asymptotic forms, reflection), against the known derivatives;
 *  4. gsl_linalg: LU (with pivoting), Cholesky and QR decompositions and
 *     solves on strided views, w . x where A x = b as a function of A and
 *     b: dJ/db = l and dJ/dA = -l x^T where A^T l = w;
 *  5. gsl_spline cspline: values, slope and integral of a natural cubic
 *     spline as functions of the knots, the data and the evaluation
 *     points; a spline is linear in its data, so the derivative with
 *     respect to y_j is the spline of the unit vector e_j.
 * Run by gsl.sh; GSL_ONLY=name (a substring of the case names) runs some
 * cases only. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_sf_bessel.h>
#include <gsl/gsl_sf_erf.h>
#include <gsl/gsl_sf_expint.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sf_psi.h>
#include <gsl/gsl_spline.h>

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { NMAX = 24 };

static int failures = 0, checks = 0;

static void check(const char *what, int i, double got, double want,
                  double tol, double scale) {
  /* (A value that is not finite fails: inf - inf passes no test.) */
  int ok = isfinite(got) && isfinite(want) &&
           fabs(got - want) <= tol * (scale + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s [%d]: %.15g, expected %.15g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

/* A case: f(x, ctx) of n inputs; its exact gradient; the tolerances of
   the three checks (relative, with `scale` added to the magnitude). */
typedef double (*objective)(const double *, const void *);
typedef void (*exact_gradient)(const double *, const void *, double *);

struct tolerances {
  double h;       /* central differences' step, relative */
  double central; /* reverse against central differences */
  double exact;   /* reverse against the exact derivative */
  double scale;
};

static double central(objective f, const double *x, int n, const void *ctx,
                      int j, double hrel) {
  double a[NMAX], b[NMAX];
  memcpy(a, x, sizeof(double) * n);
  memcpy(b, x, sizeof(double) * n);
  double h = hrel * (1 + fabs(x[j]));
  a[j] += h;
  b[j] -= h;
  return (f(a, ctx) - f(b, ctx)) / (2 * h);
}

static int selected(const char *name) {
  const char *only = getenv("GSL_ONLY");
  return !only || strstr(name, only);
}

/* The requests name each objective directly (a macro, not a function
   taking the pointer), so that every -O level sees a constant. */
#define CHECK_CASE(name, f, ctx, n, x, grad, tol)                            \
  do {                                                                       \
    if (!selected(name))                                                     \
      break;                                                                 \
    double g_[NMAX] = {0}, want_[NMAX];                                      \
    __enzyme_autodiff((void *)(f), enzyme_dup, (x), g_, enzyme_const,        \
                      (const void *)(ctx));                                  \
    (grad)((x), (ctx), want_);                                               \
    for (int j_ = 0; j_ < (n); ++j_) {                                       \
      double d_[NMAX] = {0};                                                 \
      d_[j_] = 1;                                                            \
      double fwd_ = __enzyme_fwddiff((void *)(f), enzyme_dup, (x), d_,       \
                                     enzyme_const, (const void *)(ctx));     \
      char what_[128];                                                       \
      snprintf(what_, sizeof what_, "%s reverse vs differences", name);      \
      check(what_, j_, g_[j_], central(f, (x), (n), (ctx), j_, (tol).h),     \
            (tol).central, (tol).scale);                                     \
      snprintf(what_, sizeof what_, "%s forward vs reverse", name);          \
      check(what_, j_, fwd_, g_[j_], 1e-9, (tol).scale);                     \
      snprintf(what_, sizeof what_, "%s reverse vs exact", name);            \
      check(what_, j_, g_[j_], want_[j_], (tol).exact, (tol).scale);         \
    }                                                                        \
  } while (0)

/* ---- 1. gsl_odeiv2: x'' + 2 zeta omega x' + omega^2 x = 0 ------------- */

struct oscillator {
  double omega, zeta;
};

static int oscillator_rhs(double t, const double y[], double dydt[],
                          void *params) {
  const struct oscillator *p = (const struct oscillator *)params;
  (void)t;
  dydt[0] = y[1];
  dydt[1] = -2 * p->zeta * p->omega * y[1] - p->omega * p->omega * y[0];
  return GSL_SUCCESS;
}

static int oscillator_jac(double t, const double y[], double *dfdy,
                          double dfdt[], void *params) {
  const struct oscillator *p = (const struct oscillator *)params;
  (void)t;
  (void)y;
  dfdy[0] = 0;
  dfdy[1] = 1;
  dfdy[2] = -p->omega * p->omega;
  dfdy[3] = -2 * p->zeta * p->omega;
  dfdt[0] = dfdt[1] = 0;
  return GSL_SUCCESS;
}

struct ode_case {
  const gsl_odeiv2_step_type *type;
  int fixed;     /* steps of h, n of them, or the driver's control */
  double h;      /* the step, or the first step */
  unsigned long n;
  double epsabs, epsrel;
};

enum { ODE_IN = 4 }; /* omega, zeta, x(0), v(0) */
static const double ode_t1 = 1.0, ode_wv = 0.3;

/* x(1) + 0.3 v(1). */
static double ode_objective(const double *x, const void *ctx) {
  const struct ode_case *c = (const struct ode_case *)ctx;
  struct oscillator p = {x[0], x[1]};
  gsl_odeiv2_system sys = {oscillator_rhs, oscillator_jac, 2, &p};
  gsl_odeiv2_driver *d =
      gsl_odeiv2_driver_alloc_y_new(&sys, c->type, c->h, c->epsabs, c->epsrel);
  double t = 0, y[2] = {x[2], x[3]};
  int status = c->fixed ? gsl_odeiv2_driver_apply_fixed_step(d, &t, c->h,
                                                              c->n, y)
                        : gsl_odeiv2_driver_apply(d, &t, ode_t1, y);
  gsl_odeiv2_driver_free(d);
  if (status != GSL_SUCCESS)
    return NAN;
  return y[0] + ode_wv * y[1];
}

/* The closed form x(t) = c1 e^(l1 t) + c2 e^(l2 t), l1, l2 the roots of
   l^2 + 2 zeta omega l + omega^2, differentiated by hand in direction dx. */
static double ode_exact_direction(const double *x, const double *dx) {
  double w = x[0], z = x[1], x0 = x[2], v0 = x[3];
  double dw = dx[0], dz = dx[1], dx0 = dx[2], dv0 = dx[3];
  double wd = w * sqrt(1 - z * z);
  double complex l1 = -z * w + I * wd, l2 = -z * w - I * wd;
  double complex dl[2], l[2] = {l1, l2};
  for (int k = 0; k < 2; ++k)
    dl[k] = -(z * l[k] * dw + w * l[k] * dz + w * dw) / (l[k] + z * w);
  double complex D = l1 - l2, dD = dl[0] - dl[1];
  double complex c1 = (v0 - l2 * x0) / D, c2 = (l1 * x0 - v0) / D;
  double complex dc1 = (dv0 - dl[1] * x0 - l2 * dx0) / D - c1 * dD / D;
  double complex dc2 = (dl[0] * x0 + l1 * dx0 - dv0) / D - c2 * dD / D;
  double t = ode_t1;
  double complex e1 = cexp(l1 * t), e2 = cexp(l2 * t);
  double complex de1 = t * dl[0] * e1, de2 = t * dl[1] * e2;
  double complex dxt = dc1 * e1 + c1 * de1 + dc2 * e2 + c2 * de2;
  double complex dvt = dc1 * l1 * e1 + c1 * dl[0] * e1 + c1 * l1 * de1 +
                       dc2 * l2 * e2 + c2 * dl[1] * e2 + c2 * l2 * de2;
  return creal(dxt + ode_wv * dvt);
}

static void ode_exact(const double *x, const void *ctx, double *g) {
  (void)ctx;
  for (int j = 0; j < ODE_IN; ++j) {
    double d[ODE_IN] = {0};
    d[j] = 1;
    g[j] = ode_exact_direction(x, d);
  }
}

static void check_ode(void) {
  double x[ODE_IN] = {2.3, 0.15, 0.8, -0.4};
  struct ode_case rk4_fixed = {gsl_odeiv2_step_rk4, 1, 1e-3, 1000, 1e-10, 0};
  struct ode_case rk4 = {gsl_odeiv2_step_rk4, 0, 1e-3, 0, 1e-11, 0};
  struct ode_case rkf45 = {gsl_odeiv2_step_rkf45, 0, 1e-3, 0, 1e-11, 0};
  struct ode_case rk8pd = {gsl_odeiv2_step_rk8pd, 0, 1e-3, 0, 1e-12, 1e-12};
  struct tolerances fixed = {1e-5, 1e-7, 1e-9, 0.1};
  struct tolerances adaptive = {1e-5, 1e-6, 1e-6, 0.1};
  CHECK_CASE("odeiv2 rk4 fixed steps", ode_objective, &rk4_fixed, ODE_IN, x,
             ode_exact, fixed);
  CHECK_CASE("odeiv2 rk4 driver", ode_objective, &rk4, ODE_IN, x, ode_exact,
             adaptive);
  CHECK_CASE("odeiv2 rkf45 driver", ode_objective, &rkf45, ODE_IN, x,
             ode_exact, adaptive);
  CHECK_CASE("odeiv2 rk8pd driver", ode_objective, &rk8pd, ODE_IN, x,
             ode_exact, adaptive);
}

/* ---- 2. gsl_integration ----------------------------------------------- */

struct damped_cosine {
  double a, b;
};

static double damped_cosine_f(double t, void *params) {
  const struct damped_cosine *p = (const struct damped_cosine *)params;
  return exp(-p->a * t) * cos(p->b * t);
}

struct qag_case {
  int key;
  size_t limit;
};

/* int_0^U e^(-a t) cos(b t) dt, x = (a, b, U). */
static double qag_objective(const double *x, const void *ctx) {
  const struct qag_case *c = (const struct qag_case *)ctx;
  struct damped_cosine p = {x[0], x[1]};
  gsl_function F = {damped_cosine_f, &p};
  double result = NAN, abserr;
  /* (GSL's workspace, allocated here: its shadow is allocated by the
     derivative of gsl_integration_workspace_alloc made at link time.) */
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(c->limit);
  gsl_integration_qag(&F, 0, x[2], 0, 1e-11, c->limit, c->key, w, &result,
                      &abserr);
  gsl_integration_workspace_free(w);
  return result;
}

/* Re (e^(zU) - 1) / z with z = -a + ib. */
static void qag_exact(const double *x, const void *ctx, double *g) {
  (void)ctx;
  double complex z = -x[0] + I * x[1];
  double U = x[2];
  double complex e = cexp(z * U);
  double complex dz = (U * e * z - (e - 1)) / (z * z);
  g[0] = creal(-dz);
  g[1] = creal(I * dz);
  g[2] = creal(e);
}

struct power_poly {
  double s, c;
};

static double power_poly_f(double t, void *params) {
  const struct power_poly *p = (const struct power_poly *)params;
  return pow(t, p->s - 1) * (1 + p->c * t);
}

/* int_0^1 t^(s-1) (1 + c t) dt = 1/s + c/(s+1), singular at 0 for s < 1. */
static double qags_objective(const double *x, const void *ctx) {
  const struct qag_case *c = (const struct qag_case *)ctx;
  struct power_poly p = {x[0], x[1]};
  gsl_function F = {power_poly_f, &p};
  double result = NAN, abserr;
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(c->limit);
  gsl_integration_qags(&F, 0, 1, 0, 1e-11, c->limit, w, &result, &abserr);
  gsl_integration_workspace_free(w);
  return result;
}

static void qags_exact(const double *x, const void *ctx, double *g) {
  (void)ctx;
  double s = x[0], c = x[1];
  g[0] = -1 / (s * s) - c / ((s + 1) * (s + 1));
  g[1] = 1 / (s + 1);
}

static void check_integration(void) {
  double x[3] = {0.7, 11.0, 2.0};
  struct qag_case k15 = {GSL_INTEG_GAUSS15, 100};
  struct qag_case k61 = {GSL_INTEG_GAUSS61, 100};
  struct qag_case ags = {0, 200};
  struct tolerances tol = {1e-6, 1e-7, 1e-8, 0.1};
  CHECK_CASE("qag gauss15", qag_objective, &k15, 3, x, qag_exact, tol);
  CHECK_CASE("qag gauss61", qag_objective, &k61, 3, x, qag_exact, tol);
  double y[2] = {0.55, 1.3};
  struct tolerances sing = {1e-6, 1e-6, 1e-6, 0.1};
  CHECK_CASE("qags singular", qags_objective, &ags, 2, y, qags_exact, sing);
}

/* ---- 3. gsl_sf --------------------------------------------------------- */

#define SF_OBJECTIVE(name, expr)                                             \
  static double name(const double *x, const void *ctx) {                     \
    (void)ctx;                                                               \
    return expr;                                                             \
  }

/* The value of a gsl_sf_result. (Called directly: through a pointer to
   a function of another file it is refused at -O0, docs/status.md.) */
#define VIA_RESULT(e, x)                                                     \
  ({                                                                         \
    gsl_sf_result r_;                                                        \
    e((x), &r_);                                                             \
    r_.val;                                                                  \
  })

SF_OBJECTIVE(sf_gamma, gsl_sf_gamma(x[0]))
SF_OBJECTIVE(sf_lngamma, gsl_sf_lngamma(x[0]))
SF_OBJECTIVE(sf_J0, VIA_RESULT(gsl_sf_bessel_J0_e, x[0]))
SF_OBJECTIVE(sf_J1, gsl_sf_bessel_J1(x[0]))
SF_OBJECTIVE(sf_erf, gsl_sf_erf(x[0]))
SF_OBJECTIVE(sf_erfc, VIA_RESULT(gsl_sf_erfc_e, x[0]))
SF_OBJECTIVE(sf_E1, gsl_sf_expint_E1(x[0]))
SF_OBJECTIVE(sf_Ei, gsl_sf_expint_Ei(x[0]))
SF_OBJECTIVE(sf_psi, gsl_sf_psi(x[0]))

/* The derivatives, from GSL's values (not differentiated). */
static void sf_gamma_d(const double *x, const void *c, double *g) {
  (void)c;
  g[0] = gsl_sf_gamma(x[0]) * gsl_sf_psi(x[0]);
}
static void sf_lngamma_d(const double *x, const void *c, double *g) {
  (void)c;
  g[0] = gsl_sf_psi(x[0]);
}
static void sf_J0_d(const double *x, const void *c, double *g) {
  (void)c;
  g[0] = -gsl_sf_bessel_J1(x[0]);
}
static void sf_J1_d(const double *x, const void *c, double *g) {
  (void)c;
  g[0] = gsl_sf_bessel_J0(x[0]) - gsl_sf_bessel_J1(x[0]) / x[0];
}
static void sf_erf_d(const double *x, const void *c, double *g) {
  (void)c;
  g[0] = 2 / sqrt(M_PI) * exp(-x[0] * x[0]);
}
static void sf_erfc_d(const double *x, const void *c, double *g) {
  (void)c;
  g[0] = -2 / sqrt(M_PI) * exp(-x[0] * x[0]);
}
static void sf_E1_d(const double *x, const void *c, double *g) {
  (void)c;
  g[0] = -exp(-x[0]) / x[0];
}
static void sf_Ei_d(const double *x, const void *c, double *g) {
  (void)c;
  g[0] = exp(x[0]) / x[0];
}
static void sf_psi_d(const double *x, const void *c, double *g) {
  (void)c;
  g[0] = gsl_sf_psi_1(x[0]);
}

#define CHECK_SF(f, points)                                                  \
  do {                                                                       \
    static const double p_[] = points;                                       \
    for (size_t k_ = 0; k_ < sizeof p_ / sizeof p_[0]; ++k_) {               \
      double x_[1] = {p_[k_]};                                               \
      char name_[64];                                                        \
      snprintf(name_, sizeof name_, "sf %s(%g)", &#f[3], p_[k_]);            \
      CHECK_CASE(name_, f, NULL, 1, x_, f##_d, tol);                         \
    }                                                                        \
  } while (0)
#define POINTS(...) {__VA_ARGS__}

/* (Gamma not at an integer, where GSL reads a factorial table, whose
   derivative is 0 by the convention of tables, with a warning; nor in
   about [143, 171.6), where reverse mode gives -inf: docs/status.md.) */
static void check_sf(void) {
  struct tolerances tol = {1e-6, 1e-7, 1e-9, 1e-3};
  CHECK_SF(sf_gamma, POINTS(0.3, 1.7, 4.5, 11.3, 25.7, 120.5, -1.5, -7.3));
  CHECK_SF(sf_lngamma, POINTS(0.3, 1.7, 4.5, 11.3, 25.0, 190.5, -1.5));
  CHECK_SF(sf_J0, POINTS(0.02, 0.5, 3.0, 7.0, 15.0, 40.0));
  CHECK_SF(sf_J1, POINTS(0.02, 0.5, 3.0, 7.0, 15.0, 40.0));
  CHECK_SF(sf_erf, POINTS(0.02, 0.3, 1.2, 3.0, 6.0, -0.8));
  CHECK_SF(sf_erfc, POINTS(0.02, 0.3, 1.2, 3.0, 6.0, -0.8));
  CHECK_SF(sf_E1, POINTS(0.3, 2.0, 7.0, 30.0));
  CHECK_SF(sf_Ei, POINTS(0.3, 2.0, 7.0, 30.0, -1.5));
  CHECK_SF(sf_psi, POINTS(0.4, 3.5, 12.0, 25.5, -0.7));
}

/* ---- 4. gsl_linalg ----------------------------------------------------- */

enum { LN = 4, LIN = LN * LN + LN };
enum solver { LU, CHOLESKY, QR };

struct linalg_case {
  enum solver solver;
  double w[LN];
};

/* w . x where A x = b; x = (A row-major, b). A sits in a view whose rows
   are 6 doubles apart, b in a view of stride 2. */
static double linalg_objective(const double *x, const void *ctx) {
  const struct linalg_case *c = (const struct linalg_case *)ctx;
  double abuf[LN * 6], bbuf[LN * 2];
  for (int i = 0; i < LN; ++i) {
    for (int j = 0; j < LN; ++j)
      abuf[i * 6 + j] = x[i * LN + j];
    abuf[i * 6 + 4] = abuf[i * 6 + 5] = -99;
    bbuf[2 * i] = x[LN * LN + i];
    bbuf[2 * i + 1] = 99;
  }
  gsl_matrix_view A = gsl_matrix_view_array_with_tda(abuf, LN, LN, 6);
  gsl_vector_view b = gsl_vector_view_array_with_stride(bbuf, 2, LN);
  /* (Allocated here: the shadows of the vectors GSL's solvers store into
     come from the derivatives of gsl_vector_alloc made at link time.) */
  gsl_vector *sol = gsl_vector_alloc(LN), *tau = gsl_vector_alloc(LN);
  switch (c->solver) {
  case LU: {
    gsl_permutation *perm = gsl_permutation_alloc(LN);
    int signum;
    gsl_linalg_LU_decomp(&A.matrix, perm, &signum);
    gsl_linalg_LU_solve(&A.matrix, perm, &b.vector, sol);
    gsl_permutation_free(perm);
    break;
  }
  case CHOLESKY:
    gsl_linalg_cholesky_decomp1(&A.matrix);
    gsl_linalg_cholesky_solve(&A.matrix, &b.vector, sol);
    break;
  case QR:
    gsl_linalg_QR_decomp(&A.matrix, tau);
    gsl_linalg_QR_solve(&A.matrix, tau, &b.vector, sol);
    break;
  }
  double out = 0;
  for (int i = 0; i < LN; ++i)
    out += c->w[i] * gsl_vector_get(sol, i);
  gsl_vector_free(sol);
  gsl_vector_free(tau);
  return out;
}

/* Solves M y = r by Gaussian elimination with partial pivoting (M is
   copied). */
static void reference_solve(const double *m, const double *r, double *y) {
  double a[LN][LN + 1];
  for (int i = 0; i < LN; ++i) {
    for (int j = 0; j < LN; ++j)
      a[i][j] = m[i * LN + j];
    a[i][LN] = r[i];
  }
  for (int k = 0; k < LN; ++k) {
    int p = k;
    for (int i = k + 1; i < LN; ++i)
      if (fabs(a[i][k]) > fabs(a[p][k]))
        p = i;
    for (int j = 0; j <= LN; ++j) {
      double t = a[k][j];
      a[k][j] = a[p][j];
      a[p][j] = t;
    }
    for (int i = k + 1; i < LN; ++i) {
      double f = a[i][k] / a[k][k];
      for (int j = k; j <= LN; ++j)
        a[i][j] -= f * a[k][j];
    }
  }
  for (int i = LN - 1; i >= 0; --i) {
    double s = a[i][LN];
    for (int j = i + 1; j < LN; ++j)
      s -= a[i][j] * y[j];
    y[i] = s / a[i][i];
  }
}

/* dJ/db = l, dJ/dA = -l x^T with A^T l = w. Cholesky reads the lower
   triangle only: A_ij for i > j stands for A_ji too. */
static void linalg_exact(const double *x, const void *ctx, double *g) {
  const struct linalg_case *c = (const struct linalg_case *)ctx;
  double a[LN * LN], at[LN * LN], sol[LN], l[LN];
  memcpy(a, x, sizeof a);
  if (c->solver == CHOLESKY)
    for (int i = 0; i < LN; ++i)
      for (int j = i + 1; j < LN; ++j)
        a[i * LN + j] = a[j * LN + i];
  for (int i = 0; i < LN; ++i)
    for (int j = 0; j < LN; ++j)
      at[i * LN + j] = a[j * LN + i];
  reference_solve(a, x + LN * LN, sol);
  reference_solve(at, c->w, l);
  for (int i = 0; i < LN; ++i) {
    g[LN * LN + i] = l[i];
    for (int j = 0; j < LN; ++j) {
      double d = -l[i] * sol[j];
      if (c->solver == CHOLESKY) {
        if (j > i)
          d = 0;
        else if (j < i)
          d += -l[j] * sol[i];
      }
      g[i * LN + j] = d;
    }
  }
}

static void check_linalg(void) {
  /* General (LU needs to pivot: a small first pivot) for LU and QR. */
  double general[LIN] = {0.1, 2.0, 0.5, 3.0, 4.0,  1.0, 2.0, 0.3, 0.2, 5.0,
                         1.0, 1.0, 2.0, 0.7, 6.0,  1.5, 1.0, -2.0, 0.5, 3.0};
  /* Symmetric positive definite for Cholesky: M M^T + 4 I. */
  double spd[LIN];
  double m[LN * LN] = {1, 0.5, -0.3, 0.2, 0.7, 1.2, 0.4, -0.6,
                       -0.2, 0.3, 1.5, 0.8, 0.9, -0.4, 0.1, 1.1};
  for (int i = 0; i < LN; ++i)
    for (int j = 0; j < LN; ++j) {
      double s = i == j ? 4 : 0;
      for (int k = 0; k < LN; ++k)
        s += m[i * LN + k] * m[j * LN + k];
      spd[i * LN + j] = s;
    }
  for (int i = 0; i < LN; ++i)
    spd[LN * LN + i] = general[LN * LN + i];
  struct linalg_case lu = {LU, {0.7, -1.1, 0.4, 1.3}};
  struct linalg_case chol = {CHOLESKY, {0.7, -1.1, 0.4, 1.3}};
  struct linalg_case qr = {QR, {0.7, -1.1, 0.4, 1.3}};
  struct tolerances tol = {1e-6, 1e-7, 1e-10, 0.1};
  CHECK_CASE("linalg LU", linalg_objective, &lu, LIN, general, linalg_exact,
             tol);
  CHECK_CASE("linalg cholesky", linalg_objective, &chol, LIN, spd,
             linalg_exact, tol);
  CHECK_CASE("linalg QR", linalg_objective, &qr, LIN, general, linalg_exact,
             tol);
}

/* ---- 5. gsl_spline cspline --------------------------------------------- */

enum { SN = 8, SPTS = 3, SIN = 2 * SN + SPTS };
static const double spline_wv[SPTS] = {0.8, -1.2, 0.5};
static const double spline_wd = 0.35, spline_wi = -0.25;

/* Values at three points, the slope at the second and the integral from
   the first to the third, weighted; x = (knots, data, points). */
struct spline_case {
  const gsl_interp_type *type;
};

static double spline_objective(const double *x, const void *ctx) {
  /* (The spline, allocated here: GSL's init stores the data and the
     coefficients into its blocks, whose shadows come from the derivative
     of gsl_spline_alloc made at link time.) */
  gsl_spline *s =
      gsl_spline_alloc(((const struct spline_case *)ctx)->type, SN);
  gsl_interp_accel *acc = gsl_interp_accel_alloc();
  gsl_spline_init(s, x, x + SN, SN);
  const double *t = x + 2 * SN;
  double out = 0;
  for (int k = 0; k < SPTS; ++k)
    out += spline_wv[k] * gsl_spline_eval(s, t[k], acc);
  out += spline_wd * gsl_spline_eval_deriv(s, t[1], acc);
  out += spline_wi * gsl_spline_eval_integ(s, t[0], t[2], acc);
  gsl_interp_accel_free(acc);
  gsl_spline_free(s);
  return out;
}

/* The data by linearity (the spline of e_j), the points by the spline's
   own slope and value; the knots by central differences of the spline's
   values computed by GSL (the exact check only covers the others). */
static void spline_exact(const double *x, const void *ctx, double *g) {
  double y[SIN];
  memcpy(y, x, sizeof y);
  for (int j = 0; j < SN; ++j) {
    for (int i = 0; i < SN; ++i)
      y[SN + i] = i == j ? 1 : 0;
    /* (spline_objective is linear in the data: its value at e_j.) */
    g[SN + j] = spline_objective(y, ctx);
  }
  gsl_spline *s = gsl_spline_alloc(gsl_interp_cspline, SN);
  gsl_spline_init(s, x, x + SN, SN);
  const double *t = x + 2 * SN;
  for (int k = 0; k < SPTS; ++k) {
    double d = spline_wv[k] * gsl_spline_eval_deriv(s, t[k], NULL);
    if (k == 1)
      d += spline_wd * gsl_spline_eval_deriv2(s, t[k], NULL);
    if (k == 0)
      d -= spline_wi * gsl_spline_eval(s, t[k], NULL);
    if (k == 2)
      d += spline_wi * gsl_spline_eval(s, t[k], NULL);
    g[2 * SN + k] = d;
  }
  gsl_spline_free(s);
  for (int j = 0; j < SN; ++j)
    g[j] = central(spline_objective, x, SIN, ctx, j, 1e-6);
}

static void check_spline(void) {
  double x[SIN];
  for (int i = 0; i < SN; ++i) {
    x[i] = 0.5 * i + 0.1 * sin(2.0 * i);
    x[SN + i] = cos(0.9 * x[i]) + 0.2 * x[i];
  }
  x[2 * SN] = 0.37;
  x[2 * SN + 1] = 1.93;
  x[2 * SN + 2] = 3.21;
  struct spline_case c = {gsl_interp_cspline};
  struct tolerances tol = {1e-6, 1e-7, 1e-7, 0.1};
  CHECK_CASE("spline cspline", spline_objective, &c, SIN, x, spline_exact,
             tol);
}

int main(void) {
  check_ode();
  check_integration();
  check_sf();
  check_linalg();
  check_spline();
  printf("gsl: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
