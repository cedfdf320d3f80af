/* Structs holding pointers passed enzyme_dup with a shadow the caller
 * zeroes (`= {0}`, memset, calloc, a zero-initialized global, a null
 * stored), as Enzyme's users write them: the data behind a null shadow
 * pointer has no derivative (its adjoints are dropped, its tangents are
 * zero); the derivatives with respect to everything else are checked
 * against analytic values and central differences, reverse against
 * forward. */
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 5 };

struct S {
  double *p;
  double k;
};

/* r = k * sum p[i] * sin(x[i]) */
static double weighted(struct S *s, const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += s->p[i] * sin(x[i]) * s->k;
  return r;
}

struct Model {
  const double *w; /* constant weights: a null shadow */
  double *state;   /* written and read back: a real shadow */
  struct S *inner; /* a null shadow, read through */
  int n;
};

/* state[i] = w[i] * x[i] + inner->p[i]; r = sum state[i]^2 * inner->k */
static double model(struct Model *m, const double *x) {
  double r = 0;
  for (int i = 0; i < m->n; ++i)
    m->state[i] = m->w[i] * x[i] + m->inner->p[i] * x[i] * x[i];
  for (int i = 0; i < m->n; ++i)
    r += m->state[i] * m->state[i] * m->inner->k;
  return r;
}

static double P[N] = {0.5, -1.25, 2.0, 0.75, 1.5};
static double W[N] = {1.5, 0.25, -0.5, 2.0, -1.0};
static struct S GlobalShadow; /* zero-initialized */

static void check_weighted(const double *dx, double dk, const double *x,
                           double k) {
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dx[i], P[i] * cos(x[i]) * k, 1e-12);
  double want = 0;
  for (int i = 0; i < N; ++i)
    want += P[i] * sin(x[i]);
  CHECK_CLOSE(dk, want, 1e-12);
  /* central differences in x[0] and k */
  double h = 1e-6, xs[N];
  memcpy(xs, x, sizeof xs);
  struct S s = {P, k};
  xs[0] = x[0] + h;
  double fp = weighted(&s, xs, N);
  xs[0] = x[0] - h;
  double fm = weighted(&s, xs, N);
  CHECK_CLOSE(dx[0], (fp - fm) / (2 * h), 1e-6);
  struct S sp = {P, k + h}, sm = {P, k - h};
  CHECK_CLOSE(dk, (weighted(&sp, x, N) - weighted(&sm, x, N)) / (2 * h),
              1e-6);
}

static void reverse_zero_initialized(const double *x) {
  struct S s = {P, 0.75};
  struct S ds = {0};
  double dx[N] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, &s, &ds, enzyme_dup, x, dx,
                    enzyme_const, N);
  CHECK_TRUE(ds.p == NULL);
  check_weighted(dx, ds.k, x, 0.75);
}

static void reverse_memset(const double *x) {
  struct S s = {P, -1.5};
  struct S ds;
  memset(&ds, 0, sizeof ds);
  double dx[N] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, &s, &ds, enzyme_dup, x, dx,
                    enzyme_const, N);
  check_weighted(dx, ds.k, x, -1.5);
}

static void reverse_calloc_and_global(const double *x) {
  struct S s = {P, 2.0};
  struct S *ds = calloc(1, sizeof *ds);
  double dx[N] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, &s, ds, enzyme_dup, x, dx,
                    enzyme_const, N);
  check_weighted(dx, ds->k, x, 2.0);
  free(ds);
  double dx2[N] = {0};
  GlobalShadow.k = 0;
  __enzyme_autodiff((void *)weighted, enzyme_dup, &s, &GlobalShadow,
                    enzyme_dup, x, dx2, enzyme_const, N);
  check_weighted(dx2, GlobalShadow.k, x, 2.0);
}

/* A real shadow pointer still gets its adjoints. */
static void reverse_real_shadow(const double *x) {
  struct S s = {P, 0.5};
  double dp[N] = {0};
  struct S ds = {dp, 0};
  double dx[N] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, &s, &ds, enzyme_dup, x, dx,
                    enzyme_const, N);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dp[i], sin(x[i]) * 0.5, 1e-12);
  check_weighted(dx, ds.k, x, 0.5);
}

static void forward_zeroed(const double *x) {
  struct S s = {P, 1.25};
  for (int j = 0; j < N; ++j) {
    struct S ds = {0};
    double tx[N] = {0};
    tx[j] = 1;
    double d = __enzyme_fwddiff((void *)weighted, enzyme_dup, &s, &ds,
                                enzyme_dup, x, tx, enzyme_const, N);
    CHECK_CLOSE(d, P[j] * cos(x[j]) * 1.25, 1e-12);
  }
  struct S ds = {NULL, 1.0};
  double tx[N] = {0};
  double d = __enzyme_fwddiff((void *)weighted, enzyme_dup, &s, &ds,
                              enzyme_dup, x, tx, enzyme_const, N);
  double want = 0;
  for (int i = 0; i < N; ++i)
    want += P[i] * sin(x[i]);
  CHECK_CLOSE(d, want, 1e-12);
}

static double model_value(const double *x, double k) {
  double state[N];
  struct S inner = {P, k};
  struct Model m = {W, state, &inner, N};
  return model(&m, x);
}

static void model_both_modes(const double *x) {
  double state[N], dstate[N] = {0};
  struct S inner = {P, 0.5};
  struct Model m = {W, state, &inner, N};
  struct Model dm;
  memset(&dm, 0, sizeof dm);
  dm.state = dstate;
  double dx[N] = {0};
  __enzyme_autodiff((void *)model, enzyme_dup, &m, &dm, enzyme_dup, x, dx);
  double h = 1e-6;
  for (int i = 0; i < N; ++i) {
    double s = W[i] * x[i] + P[i] * x[i] * x[i];
    CHECK_CLOSE(dx[i], 2 * s * (W[i] + 2 * P[i] * x[i]) * 0.5, 1e-12);
    double xp[N], xm[N];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    xp[i] += h;
    xm[i] -= h;
    CHECK_CLOSE(dx[i], (model_value(xp, 0.5) - model_value(xm, 0.5)) / (2 * h),
                1e-6);
    /* forward mode, direction e_i */
    struct Model tm = {NULL, dstate, NULL, 0};
    double tx[N] = {0};
    tx[i] = 1;
    double d = __enzyme_fwddiff((void *)model, enzyme_dup, &m, &tm,
                                enzyme_dup, x, tx);
    CHECK_CLOSE(d, dx[i], 1e-12);
  }
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.4, -1.9};
  reverse_zero_initialized(x);
  reverse_memset(x);
  reverse_calloc_and_global(x);
  reverse_real_shadow(x);
  forward_zeroed(x);
  model_both_modes(x);
  return check_finish();
}
