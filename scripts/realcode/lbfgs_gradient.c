/* Derivatives with liblbfgs (github.com/chokkan/liblbfgs, lib/lbfgs.c
 * compiled unchanged on its own and linked; the derivatives of its
 * functions are made at link time). lbfgs() minimizes an objective that a
 * user callback evaluates (value and gradient), called through a function
 * pointer from the iteration and from its line searches (More-Thuente,
 * backtracking with the Armijo, Wolfe and strong Wolfe conditions, and
 * OWL-QN's with an L1 term), which branch on the values they see.
 *
 *  1. "through": the value reached after a fixed number of iterations,
 *     fx + w.x, differentiated with respect to the objective's parameters
 *     theta (the callback reads them through lbfgs's instance pointer), the
 *     vectors allocated by lbfgs inside the differentiated function:
 *     reverse mode against central differences (the iteration path is
 *     locally stable: the same number of line-search steps at theta +- h,
 *     which the driver checks) and forward mode against reverse mode.
 *  2. "callback": the gradient lbfgs needs computed by __enzyme_autodiff
 *     (and by __enzyme_fwddiff, one direction at a time) inside the
 *     callback, as Enzyme users write it: the gradient against the
 *     hand-written one at every call, the run against the run with the
 *     hand-written gradient (the same iterates), the minimizer against the
 *     known one.
 *  3. "nested": 1. with 2.'s callback, a derivative of the optimizer whose
 *     callback differentiates the objective itself (second derivatives of
 *     the objective inside).
 * Run by lbfgs.sh. */
#include "lbfgs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int failures = 0, checks = 0;

static void check(const char *what, int i, double got, double want,
                  double tol) {
  int ok = fabs(got - want) <= tol * (1 + fabs(want));
  ++checks;
  if (!ok) {
    printf("%s (i=%d): %.15g, expected %.15g  FAIL\n", what, i, got, want);
    ++failures;
  }
}

/* ---- the objectives ---------------------------------------------------- */

enum { QUARTIC, ROSENBROCK, KINDS };

/* (t holds n numbers.)
   QUARTIC: sum_i a_i (x_i - t_i)^2 / 2 + x_i^4 / 4 + 0.3 sin(t_0 x_i)
            + t_1^2 (x_{i+1} - x_i)^2 / 2, a_i = 1 + i / 4;
   ROSENBROCK (sample.c's): sum over pairs t_0^2 (x_{2i+1} - x_{2i}^2)^2
            + (t_1 - x_{2i})^2. */
static double objective(const double *x, const double *t, int n, int kind) {
  double f = 0;
  if (kind == QUARTIC) {
    for (int i = 0; i < n; ++i) {
      double a = 1 + 0.25 * i, d = x[i] - t[i];
      f += 0.5 * a * d * d + 0.25 * x[i] * x[i] * x[i] * x[i] +
           0.3 * sin(t[0] * x[i]);
      if (i + 1 < n)
        f += 0.5 * t[1] * t[1] * (x[i + 1] - x[i]) * (x[i + 1] - x[i]);
    }
  } else {
    for (int i = 0; i + 1 < n; i += 2) {
      double u = x[i + 1] - x[i] * x[i], v = t[1] - x[i];
      f += t[0] * t[0] * u * u + v * v;
    }
  }
  return f;
}

/* Its gradient with respect to x, by hand. */
static void hand_gradient(const double *x, const double *t, int n, int kind,
                          double *g) {
  for (int i = 0; i < n; ++i)
    g[i] = 0;
  if (kind == QUARTIC) {
    for (int i = 0; i < n; ++i) {
      double a = 1 + 0.25 * i;
      g[i] += a * (x[i] - t[i]) + x[i] * x[i] * x[i] +
              0.3 * t[0] * cos(t[0] * x[i]);
      if (i + 1 < n) {
        double s = t[1] * t[1] * (x[i + 1] - x[i]);
        g[i + 1] += s;
        g[i] -= s;
      }
    }
  } else {
    for (int i = 0; i + 1 < n; i += 2) {
      double u = x[i + 1] - x[i] * x[i], v = t[1] - x[i];
      g[i] += -4 * t[0] * t[0] * u * x[i] - 2 * v;
      g[i + 1] += 2 * t[0] * t[0] * u;
    }
  }
}

/* What lbfgs's instance pointer points to. */
struct problem {
  const double *theta;
  int kind;
  int gradient; /* HAND, REVERSE or FORWARD */
  int calls, iterations;
};

enum { HAND, REVERSE, FORWARD };

static lbfgsfloatval_t evaluate(void *instance, const lbfgsfloatval_t *x,
                                lbfgsfloatval_t *g, const int n,
                                const lbfgsfloatval_t step) {
  (void)step;
  struct problem *p = instance;
  ++p->calls;
  if (p->gradient == HAND) {
    hand_gradient(x, p->theta, n, p->kind, g);
  } else if (p->gradient == REVERSE) {
    for (int i = 0; i < n; ++i)
      g[i] = 0;
    __enzyme_autodiff((void *)objective, enzyme_dup, x, g, enzyme_const,
                      p->theta, enzyme_const, n, enzyme_const, p->kind);
  } else {
    double t[16] = {0};
    for (int i = 0; i < n; ++i) {
      t[i] = 1;
      g[i] = __enzyme_fwddiff((void *)objective, enzyme_dup, x, t,
                              enzyme_const, p->theta, enzyme_const, n,
                              enzyme_const, p->kind);
      t[i] = 0;
    }
  }
  return objective(x, p->theta, n, p->kind);
}

/* lbfgs's progress report (sample.c's has one): counts the iterations.
   Passed only with -DLBFGS_PROGRESS (lbfgs.sh builds both): without it the
   progress pointer is null, and lbfgs's call through it, which no
   function of the program can be the target of, never runs (a
   compile-time error until 2026-12-07). */
#ifdef LBFGS_PROGRESS
static int progress(void *instance, const lbfgsfloatval_t *x,
                    const lbfgsfloatval_t *g, const lbfgsfloatval_t fx,
                    const lbfgsfloatval_t xnorm, const lbfgsfloatval_t gnorm,
                    const lbfgsfloatval_t step, int n, int k, int ls) {
  (void)x, (void)g, (void)fx, (void)xnorm, (void)gnorm, (void)step, (void)n;
  (void)k, (void)ls;
  ++((struct problem *)instance)->iterations;
  return 0;
}
#else
#define progress NULL
#endif

/* ---- 1. through the optimizer ------------------------------------------ */

struct run {
  int n, kind, linesearch, iterations, gradient;
  double orthantwise; /* the L1 weight of OWL-QN, 0 for L-BFGS */
  const double *x0, *w;
};

static int last_status, last_calls;

/* fx + w.x after r->iterations iterations from r->x0, with the objective's
   parameters theta. */
static double after_lbfgs(const double *theta, const struct run *r) {
  int n = r->n;
  /* (malloc, not lbfgs_malloc, which is malloc without USE_SSE: memory a
     function of another file allocates and returns gets no shadow,
     docs/status.md, Known bugs.) */
  lbfgsfloatval_t *x = malloc(sizeof(lbfgsfloatval_t) * n), fx = 0;
  for (int i = 0; i < n; ++i)
    x[i] = r->x0[i];
  struct problem p = {theta, r->kind, r->gradient, 0, 0};
  lbfgs_parameter_t param;
  lbfgs_parameter_init(&param);
  param.max_iterations = r->iterations;
  param.epsilon = 1e-30; /* no convergence test stops it early */
  param.linesearch = r->linesearch;
  if (r->orthantwise > 0) {
    param.orthantwise_c = r->orthantwise;
    param.linesearch = LBFGS_LINESEARCH_BACKTRACKING;
  }
  last_status = lbfgs(n, x, &fx, evaluate, progress, &p, &param);
  last_calls = p.calls;
  double s = fx;
  for (int i = 0; i < n; ++i)
    s += r->w[i] * x[i];
  free(x);
  return s;
}

static const char *search_name(int linesearch, double orthantwise) {
  if (orthantwise > 0)
    return "OWL-QN";
  switch (linesearch) {
  case LBFGS_LINESEARCH_MORETHUENTE:
    return "More-Thuente";
  case LBFGS_LINESEARCH_BACKTRACKING_ARMIJO:
    return "Armijo";
  case LBFGS_LINESEARCH_BACKTRACKING_WOLFE:
    return "Wolfe";
  default:
    return "strong Wolfe";
  }
}

static void through_case(struct run *r, const double *theta0, int nested) {
  enum { T = 6 }; /* the quartic reads theta_0 .. theta_5 */
  double theta[T], dtheta[T] = {0}, what_f;
  char what[128];
  memcpy(theta, theta0, sizeof theta);
  const char *kind = r->kind == QUARTIC ? "quartic" : "Rosenbrock";
  const char *search = search_name(r->linesearch, r->orthantwise);
  r->gradient = nested ? REVERSE : HAND;
  what_f = after_lbfgs(theta, r);
  int status = last_status, calls = last_calls;
  snprintf(what, sizeof what, "%s %s %d iterations: status", kind, search,
           r->iterations);
  check(what, -1, status, LBFGSERR_MAXIMUMITERATION, 0);
  (void)what_f;
  __enzyme_autodiff((void *)after_lbfgs, enzyme_dup, theta, dtheta,
                    enzyme_const, r);
  for (int i = 0; i < T; ++i) {
    double ti = theta[i], h = 1e-6 * (1 + fabs(ti));
    theta[i] = ti + h;
    double up = after_lbfgs(theta, r);
    int up_calls = last_calls;
    theta[i] = ti - h;
    double down = after_lbfgs(theta, r);
    int down_calls = last_calls;
    theta[i] = ti;
    /* (Where the line searches took other steps at theta +- h the
       function is not smooth there: no reference.) */
    if (up_calls == calls && down_calls == calls) {
      snprintf(what, sizeof what, "%s%s %s %d iterations: reverse vs differences",
               nested ? "nested " : "", kind, search, r->iterations);
      check(what, i, dtheta[i], (up - down) / (2 * h), 1e-5);
    } else {
      printf("%s %s %d iterations, theta_%d: the path changes within "
             "+-h, no difference\n", kind, search, r->iterations, i);
    }
    double t[T] = {0};
    t[i] = 1;
    double fd = __enzyme_fwddiff((void *)after_lbfgs, enzyme_dup, theta, t,
                                 enzyme_const, r);
    snprintf(what, sizeof what, "%s%s %s %d iterations: forward vs reverse",
             nested ? "nested " : "", kind, search, r->iterations);
    check(what, i, fd, dtheta[i], 1e-9);
  }
}

static void through_all(int nested) {
  static const double x0q[6] = {0.5, -0.3, 1.2, 0.1, -0.8, 0.4};
  static const double x0r[6] = {-1.2, 1, -1.2, 1, -1.2, 1};
  static const double w[6] = {0.3, -0.2, 0.5, 0.1, -0.4, 0.25};
  static const double thq[6] = {0.7, 0.9, -0.4, 0.3, 0.2, -0.6};
  static const double thr[6] = {3.0, 1.1, 0.2, -0.1, 0, 0};
  static const int searches[] = {
      LBFGS_LINESEARCH_MORETHUENTE, LBFGS_LINESEARCH_BACKTRACKING_ARMIJO,
      LBFGS_LINESEARCH_BACKTRACKING_WOLFE,
      LBFGS_LINESEARCH_BACKTRACKING_STRONG_WOLFE};
  for (int kind = 0; kind < KINDS; ++kind)
    for (unsigned s = 0; s < sizeof searches / sizeof *searches; ++s)
      for (int iterations = 1; iterations <= 9; iterations += 4) {
        struct run r = {6,   kind, searches[s], iterations, HAND, 0,
                        kind == QUARTIC ? x0q : x0r, w};
        through_case(&r, kind == QUARTIC ? thq : thr, nested);
      }
  /* OWL-QN (an L1 term: sign tests, projections onto orthants). */
  struct run r = {6, QUARTIC, 0, 6, HAND, 0.05, x0q, w};
  through_case(&r, thq, nested);
}

/* ---- 2. the callback's gradient by adcc -------------------------------- */

static void callback_case(int kind, int gradient) {
  enum { N = 8 };
  static const double thq[8] = {0.7, 0.9, -0.4, 0.3, 0.2, -0.6, 0.5, 0.1};
  static const double thr[8] = {3.0, 1.0};
  const double *theta = kind == QUARTIC ? thq : thr;
  double x[N], y[N], fx = 0, fy = 0;
  for (int i = 0; i < N; ++i)
    x[i] = y[i] = kind == QUARTIC ? 0.3 * i - 1 : (i % 2 ? 1.0 : -1.2);
  char what[96];
  const char *name = gradient == REVERSE ? "reverse" : "forward";
  /* The gradient against the hand-written one at points along a path. */
  for (int k = 0; k < 5; ++k) {
    double z[N], g[N], want[N];
    for (int i = 0; i < N; ++i)
      z[i] = x[i] + 0.1 * k * sin(1.3 * i + k);
    struct problem p = {theta, kind, gradient, 0};
    double f = evaluate(&p, z, g, N, 0);
    hand_gradient(z, theta, N, kind, want);
    snprintf(what, sizeof what, "callback %s gradient", name);
    for (int i = 0; i < N; ++i)
      check(what, i, g[i], want[i], 1e-12);
    check("callback value", -1, f, objective(z, theta, N, kind), 0);
  }
  /* The run with adcc's gradient against the run with the hand-written
     one, and the minimizer. */
  lbfgs_parameter_t param;
  lbfgs_parameter_init(&param);
  param.epsilon = 1e-10;
  struct problem pa = {theta, kind, gradient, 0}, ph = {theta, kind, HAND, 0};
  int sa = lbfgs(N, x, &fx, evaluate, NULL, &pa, &param);
  int sh = lbfgs(N, y, &fy, evaluate, NULL, &ph, &param);
  /* (The gradients agree to rounding, not bit for bit: near the minimum
     the line searches may then take other steps, and both runs stop where
     rounding stops progress or the test holds.) */
  snprintf(what, sizeof what, "callback %s: status", name);
  check(what, -1, sa == LBFGS_SUCCESS || sa == LBFGSERR_ROUNDING_ERROR, 1, 0);
  check(what, -2, sh == LBFGS_SUCCESS || sh == LBFGSERR_ROUNDING_ERROR, 1, 0);
  snprintf(what, sizeof what, "callback %s: minimum", name);
  check(what, -1, fx, fy, 1e-12);
  snprintf(what, sizeof what, "callback %s: iterate", name);
  for (int i = 0; i < N; ++i)
    check(what, i, x[i], y[i], 1e-6);
  double g[N];
  hand_gradient(x, theta, N, kind, g);
  snprintf(what, sizeof what, "callback %s: gradient at the minimizer", name);
  for (int i = 0; i < N; ++i)
    check(what, i, g[i], 0, 1e-7);
  if (kind == ROSENBROCK) {
    snprintf(what, sizeof what, "callback %s: Rosenbrock's minimizer", name);
    for (int i = 0; i < N; ++i)
      check(what, i, x[i], 1, 1e-6);
  }
}

int main(int argc, char **argv) {
  const char *part = argc > 1 ? argv[1] : "all";
  int all = !strcmp(part, "all");
  if (all || !strcmp(part, "through"))
    through_all(0);
  if (all || !strcmp(part, "callback"))
    for (int kind = 0; kind < KINDS; ++kind) {
      callback_case(kind, REVERSE);
      callback_case(kind, FORWARD);
    }
  if (all || !strcmp(part, "nested"))
    through_all(1);
  printf("liblbfgs (%s): %d checks, %d failures\n", part, checks, failures);
  return failures != 0;
}
