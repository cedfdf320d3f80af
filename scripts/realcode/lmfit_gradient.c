/* Derivatives through lmfit (Joachim Wuttke's Levenberg-Marquardt library
 * in C, derived from MINPACK; any public copy of lib/, e.g.
 * github.com/NSLS-II/lmfit): lmmin.c, lmcurve.c and lminvert.c compiled
 * unchanged, each on its own, the derivatives of their functions made at
 * link time. A fit is an iterative solver: the Jacobian by forward
 * differences inside the solver (a parameter moved in place and put back),
 * a pivoted QR factorization, the Levenberg-Marquardt parameter found by
 * its own iteration, tolerances that end the loop, one malloc'd block that
 * holds the doubles of the workspace and the int pivots after them, the
 * model called through a function pointer held in a struct passed as
 * `const void *`, a FILE * in the control struct.
 *
 * The objective is a weighted sum of the fitted parameters and of the
 * residual norm lmfit reports (for lmmin2 also of its error estimates,
 * which invert J^T J with lm_invert), as a function of the abscissae, the
 * data and the starting point:
 *  1. reverse mode against central differences and forward mode (every
 *     coordinate), for a nonlinear model (a decay plus a sine);
 *  2. a straight line, whose fit is linear least squares: the gradient
 *     with respect to the data is w^T (A^T A)^-1 A^T exactly;
 *  3. the starting point, which a converged fit forgets: a gradient of 0;
 *  4. lmmin2 with the data as its y argument, the error estimates and the
 *     covariance.
 * Run by lmfit.sh. */
#include "lmcurve.h"
#include "lmmin.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { M = 16, NMAX = 4 };

static int failures = 0, checks = 0;

static void check(const char *what, int i, double got, double want,
                  double tol, double scale) {
  int ok = fabs(got - want) <= tol * (scale + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s [%d]: %.15g, expected %.15g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

static double decay_sine(double t, const double *p) {
  return p[0] * exp(-p[1] * t) + p[2] * sin(p[3] * t);
}

static double line(double t, const double *p) { return p[0] + p[1] * t; }

/* The problem: which model, how many parameters, the weights of the
 * objective. Constant for the derivatives. */
struct problem {
  double (*model)(double, const double *);
  int n;
  double w[NMAX];
  double wnorm;
};

static lm_control_struct control(void) {
  lm_control_struct c = lm_control_double;
  c.verbosity = 0;
  c.patience = 200;
  return c;
}

/* sum_k w_k p*_k + wnorm |r(p*)| after lmcurve from p0. */
static double fit_curve(const double *t, const double *y, const double *p0,
                        const struct problem *pb) {
  double par[NMAX];
  for (int k = 0; k < pb->n; ++k)
    par[k] = p0[k];
  lm_control_struct c = control();
  lm_status_struct s;
  lmcurve(pb->n, par, M, t, y, pb->model, &c, &s);
  double out = pb->wnorm * s.fnorm;
  for (int k = 0; k < pb->n; ++k)
    out += pb->w[k] * par[k];
  return out;
}

/* lmmin2's user data: the abscissae; the model is g(t, p) and lmmin2
 * subtracts its y argument itself. */
struct abscissae {
  const double *t;
  double (*g)(double, const double *);
};

static void evaluate(const double *par, int m, const void *data,
                     double *fvec, int *userbreak) {
  const struct abscissae *a = (const struct abscissae *)data;
  for (int i = 0; i < m; ++i)
    fvec[i] = a->g(a->t[i], par);
  (void)userbreak;
}

/* The fitted parameters, their error estimates and the covariance. */
static double fit_errors(const double *t, const double *y, const double *p0,
                         const struct problem *pb) {
  double par[NMAX], err[NMAX], cov[NMAX * NMAX];
  for (int k = 0; k < pb->n; ++k)
    par[k] = p0[k];
  struct abscissae a = {t, pb->model};
  lm_control_struct c = control();
  lm_status_struct s;
  lmmin2(pb->n, par, err, cov, M, y, &a, evaluate, &c, &s);
  double out = pb->wnorm * s.fnorm;
  for (int k = 0; k < pb->n; ++k) {
    out += pb->w[k] * par[k] + 0.3 * (k + 1) * err[k];
    for (int l = 0; l < pb->n; ++l)
      out += 0.05 * (k - l + 0.5) * cov[k * pb->n + l];
  }
  return out;
}

typedef double (*objective)(const double *, const double *, const double *,
                            const struct problem *);

/* The inputs: t[M], y[M], p0[n] in one vector. */
struct inputs {
  double v[2 * M + NMAX];
};

static double call(objective f, const struct inputs *in,
                   const struct problem *pb) {
  return f(in->v, in->v + M, in->v + 2 * M, pb);
}

static void reverse(objective f, const struct inputs *in,
                    const struct problem *pb, double *g) {
  memset(g, 0, sizeof(double) * (2 * M + NMAX));
  __enzyme_autodiff((void *)f, enzyme_dup, in->v, g, enzyme_dup, in->v + M,
                    g + M, enzyme_dup, in->v + 2 * M, g + 2 * M, enzyme_const,
                    pb);
}

static double forward(objective f, const struct inputs *in,
                      const struct problem *pb, int j) {
  double d[2 * M + NMAX] = {0};
  d[j] = 1;
  return __enzyme_fwddiff((void *)f, enzyme_dup, in->v, d, enzyme_dup,
                          in->v + M, d + M, enzyme_dup, in->v + 2 * M,
                          d + 2 * M, enzyme_const, pb);
}

static double central(objective f, const struct inputs *in,
                      const struct problem *pb, int j) {
  struct inputs a = *in, b = *in;
  /* (The fit ends when its steps are relatively small: its result moves
     by about 1e-10 as the inputs do, so the step is not small.) */
  double h = 1e-4 * (1 + fabs(in->v[j]));
  a.v[j] += h;
  b.v[j] -= h;
  return (call(f, &a, pb) - call(f, &b, pb)) / (2 * h);
}

static struct inputs make_inputs(const struct problem *pb,
                                 const double *p0) {
  struct inputs in;
  for (int i = 0; i < M; ++i) {
    double t = 0.25 * i + 0.05 * sin(3.0 * i);
    in.v[i] = t;
    in.v[M + i] = 2.5 * exp(-0.7 * t) + 0.8 * sin(1.3 * t) +
                  0.03 * sin(7.1 * i + 0.4);
  }
  for (int k = 0; k < NMAX; ++k)
    in.v[2 * M + k] = k < pb->n ? p0[k] : 0;
  return in;
}

/* Reverse against central differences and forward mode, every input. */
static void check_all(const char *name, objective f,
                      const struct problem *pb, const double *p0,
                      double scale) {
  struct inputs in = make_inputs(pb, p0);
  int nin = 2 * M + pb->n;
  double g[2 * M + NMAX];
  reverse(f, &in, pb, g);
  char what[96];
  for (int j = 0; j < nin; ++j) {
    snprintf(what, sizeof what, "%s reverse vs differences", name);
    check(what, j, g[j], central(f, &in, pb, j), 1e-4, scale);
    snprintf(what, sizeof what, "%s forward vs reverse", name);
    check(what, j, forward(f, &in, pb, j), g[j], 1e-8, 1.0);
  }
  /* The starting point: forgotten by a converged fit. */
  for (int k = 0; k < pb->n; ++k) {
    snprintf(what, sizeof what, "%s d/dp0", name);
    check(what, k, g[2 * M + k], 0, 1e-6, scale);
  }
}

/* A straight line fitted by lmcurve: d(w . p*)/dy = w^T (A^T A)^-1 A^T. */
static void check_line(const struct problem *pb) {
  double p0[2] = {1.0, -0.5};
  struct inputs in = make_inputs(pb, p0);
  double g[2 * M + NMAX];
  reverse(fit_curve, &in, pb, g);
  double s0 = M, s1 = 0, s2 = 0;
  for (int i = 0; i < M; ++i) {
    s1 += in.v[i];
    s2 += in.v[i] * in.v[i];
  }
  double det = s0 * s2 - s1 * s1;
  /* (A^T A)^-1 w */
  double u0 = (s2 * pb->w[0] - s1 * pb->w[1]) / det;
  double u1 = (-s1 * pb->w[0] + s0 * pb->w[1]) / det;
  for (int i = 0; i < M; ++i)
    check("line d/dy analytic", i, g[M + i], u0 + u1 * in.v[i], 1e-7, 0.1);
}

int main(void) {
  struct problem curve = {decay_sine, 4, {0.7, -1.1, 0.9, 0.4}, 0.6};
  struct problem straight = {line, 2, {0.8, -1.3}, 0.0};
  struct problem straight_norm = {line, 2, {0.8, -1.3}, 0.5};
  double p_curve[4] = {2.0, 0.5, 1.0, 1.2};
  double p_line[2] = {1.0, -0.5};
  check_all("lmcurve decay+sine", fit_curve, &curve, p_curve, 0.1);
  check_all("lmcurve line", fit_curve, &straight_norm, p_line, 0.1);
  check_line(&straight);
  check_all("lmmin2 decay+sine errors", fit_errors, &curve, p_curve, 0.1);
  check_all("lmmin2 line errors", fit_errors, &straight_norm, p_line, 0.1);
  printf("lmfit: %d checks, %d failed\n", checks, failures);
  return failures != 0;
}
