/* Hessian-vector products by forward over reverse of loops over arrays
 * (sum of squares, Rosenbrock), where the reverse sweep reads back the
 * pointers its augmented sweep recorded: with the outer request's
 * duplicated arguments (their shadow records hold tangents that are never
 * null, so the reverse sweep's loops run unguarded and vectorize: docs/
 * forward-mode.md), with the inner gradient in a buffer the function
 * allocates, and with either argument constant in the outer request (the
 * shadow record holds null: reads give zeros, writes go nowhere). Against
 * closed forms and central differences of the gradient; odd lengths leave
 * a vector loop's remainder. */
#include "rev_check.h"

#include <stdlib.h>

void __enzyme_fwddiff_void(void *, ...);

enum { N = 37 };

static double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i];
  return s;
}

static double rosenbrock(const double *x, int n) {
  double f = 0;
  for (int i = 0; i + 1 < n; i++) {
    double t = x[i + 1] - x[i] * x[i], u = 1.0 - x[i];
    f += 100.0 * t * t + u * u;
  }
  return f;
}

static void grad_sumsq(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++)
    g[i] = 0;
  __enzyme_autodiff_void((void *)sumsq, enzyme_dup, x, g, enzyme_const, n);
}

static void grad_rosen(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++)
    g[i] = 0;
  __enzyme_autodiff_void((void *)rosenbrock, enzyme_dup, x, g, enzyme_const,
                         n);
}

/* the gradient in an allocated buffer, copied out */
static void grad_rosen_heap(const double *x, double *out, int n) {
  double *g = calloc(n, sizeof(double));
  __enzyme_autodiff_void((void *)rosenbrock, enzyme_dup, x, g, enzyme_const,
                         n);
  for (int i = 0; i < n; i++)
    out[i] = g[i];
  free(g);
}

static void hess_sumsq(const double *x, const double *v, double *hv) {
  for (int i = 0; i < N; i++)
    hv[i] = 6 * x[i] * v[i];
}

static void hess_rosen(const double *x, const double *v, double *hv) {
  for (int i = 0; i < N; i++) {
    double h = 0;
    if (i + 1 < N)
      h += (2 + 1200 * x[i] * x[i] - 400 * x[i + 1]) * v[i] -
           400 * x[i] * v[i + 1];
    if (i > 0)
      h += 200 * v[i] - 400 * x[i - 1] * v[i - 1];
    hv[i] = h;
  }
}

/* H v of grad (a function of the file: the request names it) against the
 * closed form and central differences of the gradient; the gradient
 * itself against a plain call */
#define CHECK_HVP(grad, x, v, want)                                            \
  do {                                                                         \
    double g_[N], hv_[N];                                                      \
    __enzyme_fwddiff_void((void *)grad, enzyme_dup, x, v, enzyme_dup, g_, hv_, \
                          enzyme_const, N);                                    \
    check_against(g_, hv_, grad, x, v, want);                                  \
  } while (0)

static void check_against(const double *g, const double *hv,
                          void (*grad)(const double *, double *, int),
                          const double *x, const double *v,
                          const double *want) {
  double g0[N], xp[N], xm[N], gp[N], gm[N], h = 1e-6;
  grad(x, g0, N);
  for (int i = 0; i < N; i++)
    xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  grad(xp, gp, N);
  grad(xm, gm, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], g0[i], REV_TOL_EXACT);
    CHECK_CLOSE(hv[i], want[i], REV_TOL_EXACT);
    CHECK_CLOSE(hv[i], (gp[i] - gm[i]) / (2 * h), REV_TOL_FD);
  }
}

int main(void) {
  double x[N], v[N], want[N];
  for (int i = 0; i < N; i++) {
    x[i] = rev_rand();
    v[i] = rev_rand();
  }
  hess_sumsq(x, v, want);
  CHECK_HVP(grad_sumsq, x, v, want);
  hess_rosen(x, v, want);
  CHECK_HVP(grad_rosen, x, v, want);
  CHECK_HVP(grad_rosen_heap, x, v, want);

  /* x constant in the outer request: no direction, H 0 = 0 */
  double g[N], hv[N], g0[N];
  for (int i = 0; i < N; i++)
    hv[i] = 1;
  __enzyme_fwddiff_void((void *)grad_rosen, enzyme_const, x, enzyme_dup, g,
                        hv, enzyme_const, N);
  grad_rosen(x, g0, N);
  for (int i = 0; i < N; i++) {
    CHECK_CLOSE(g[i], g0[i], REV_TOL_EXACT);
    CHECK_CLOSE(hv[i], 0.0, REV_TOL_EXACT);
  }
  /* the gradient constant in the outer request: its tangent goes nowhere,
   * the gradient is still computed */
  for (int i = 0; i < N; i++)
    g[i] = 0;
  __enzyme_fwddiff_void((void *)grad_sumsq, enzyme_dup, x, v, enzyme_const, g,
                        enzyme_const, N);
  for (int i = 0; i < N; i++)
    CHECK_CLOSE(g[i], 3 * x[i] * x[i], REV_TOL_EXACT);
  return check_finish();
}
