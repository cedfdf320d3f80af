/* Null shadow pointers in a file that passes an output enzyme_dupnoneed
 * with a constant address ((double *)0x1: Enzyme's idiom for an output
 * whose values are not wanted, a view without memory). A shadow struct the
 * caller zeroes (`struct S ds = {0}`) leaves a null shadow beside the
 * pointer s->p to data; what the function writes through it and reads back
 * must keep its derivative through a scratch shadow of the primal address.
 * Such files used no scratch shadows: the writes went to a sink and the
 * gradient was 0 at -O0; where the same function also writes the output
 * without memory, wrong at every level. The request with the constant
 * address comes first in the file (the order that lost the derivative).
 * Reverse and forward mode, and forward over reverse (a Hessian-vector
 * product), checked against analytic values, central differences, and
 * each other (dot-product test, dense against constant-address output and
 * a __enzyme_todense view). */
#include "check.h"

void __enzyme_autodiff_void(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double *__enzyme_todense(void *, void *, ...);
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;

enum { N = 3, M = 2 };
static const double X[N] = {0.6, -1.3, 0.8}, K = 0.75, H = 1e-6;
static const double W[M] = {1.5, -0.5}, V[N] = {0.2, -0.7, 1.1};

struct S {
  double *p;
  double k;
};

/* y = (x0 x1, sin x2): an output only written. */
static void outputs(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = sin(x[2]);
}

/* p[0] = x0 x1; p[1] = p[0] + x2^2; r = k p[1]^2 + sin x0 */
static double f(struct S *s, const double *x) {
  s->p[0] = x[0] * x[1];
  s->p[1] = s->p[0] + x[2] * x[2];
  return s->k * s->p[1] * s->p[1] + sin(x[0]);
}

/* p[0] = x0 x1; y = (k p[0], sin(p[0]) x2): both in one function. */
static void g(struct S *s, const double *x, double *y) {
  s->p[0] = x[0] * x[1];
  y[0] = s->k * s->p[0];
  y[1] = sin(s->p[0]) * x[2];
}

static double f_value(const double *x) {
  double buf[2] = {0};
  struct S s = {buf, K};
  return f(&s, x);
}
/* <W, g(x)> */
static double g_weighted(const double *x) {
  double buf[1] = {0}, y[M];
  struct S s = {buf, K};
  g(&s, x, y);
  return W[0] * y[0] + W[1] * y[1];
}
static double central(double (*fn)(const double *), int i) {
  double xp[N] = {X[0], X[1], X[2]}, xm[N] = {X[0], X[1], X[2]};
  xp[i] += H;
  xm[i] -= H;
  return (fn(xp) - fn(xm)) / (2 * H);
}

static void check_outputs(void) {
  double dx[N] = {0}, dy[M] = {W[0], W[1]};
  __enzyme_autodiff_void((void *)outputs, enzyme_dup, X, dx, enzyme_dupnoneed,
                    (double *)0x1, dy);
  CHECK_CLOSE(dx[0], W[0] * X[1], 1e-12);
  CHECK_CLOSE(dx[1], W[0] * X[0], 1e-12);
  CHECK_CLOSE(dx[2], W[1] * cos(X[2]), 1e-12);
  CHECK_TRUE(dy[0] == 0 && dy[1] == 0);
  double ty[M] = {0};
  __enzyme_fwddiff_void((void *)outputs, enzyme_dup, X, V, enzyme_dupnoneed,
                   (double *)0x1, ty);
  CHECK_CLOSE(ty[0], V[0] * X[1] + V[1] * X[0], 1e-12);
  CHECK_CLOSE(ty[1], V[2] * cos(X[2]), 1e-12);
}

static void check_struct(void) {
  double q = X[0] * X[1] + X[2] * X[2];
  double grad[N] = {2 * K * q * X[1] + cos(X[0]), 2 * K * q * X[0],
                    4 * K * q * X[2]};
  double buf[2] = {0}, dx[N] = {0};
  struct S s = {buf, K}, ds = {0};
  __enzyme_autodiff_void((void *)f, enzyme_dup, &s, &ds, enzyme_dup, X, dx);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(dx[i], grad[i], 1e-12);
    CHECK_CLOSE(dx[i], central(f_value, i), 1e-6);
  }
  CHECK_CLOSE(ds.k, q * q, 1e-12);
  CHECK_TRUE(ds.p == NULL);
  for (int i = 0; i < N; ++i) {
    double fbuf[2] = {0}, e[N] = {0};
    struct S fs = {fbuf, K}, dfs = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, &fs, &dfs, enzyme_dup,
                                  X, e);
    CHECK_CLOSE(t, dx[i], 1e-12);
    CHECK_TRUE(dfs.p == NULL);
  }
}

static void check_both(void) {
  double q = X[0] * X[1], c = cos(q);
  double J[M][N] = {{K * X[1], K * X[0], 0},
                    {c * X[2] * X[1], c * X[2] * X[0], sin(q)}};
  double buf[1] = {0}, dx[N] = {0}, dy[M] = {W[0], W[1]};
  struct S s = {buf, K}, ds = {0};
  __enzyme_autodiff_void((void *)g, enzyme_dup, &s, &ds, enzyme_dup, X, dx,
                    enzyme_dupnoneed, (double *)0x1, dy);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(dx[i], W[0] * J[0][i] + W[1] * J[1][i], 1e-12);
    CHECK_CLOSE(dx[i], central(g_weighted, i), 1e-6);
  }
  CHECK_CLOSE(ds.k, W[0] * q, 1e-12);
  CHECK_TRUE(ds.p == NULL);
  CHECK_TRUE(dy[0] == 0 && dy[1] == 0);

  double fbuf[1] = {0}, ty[M] = {0};
  struct S fs = {fbuf, K}, dfs = {0};
  __enzyme_fwddiff_void((void *)g, enzyme_dup, &fs, &dfs, enzyme_dup, X, V,
                   enzyme_dupnoneed, (double *)0x1, ty);
  double lhs = 0, rhs = 0;
  for (int j = 0; j < M; ++j) {
    double jv = 0;
    for (int i = 0; i < N; ++i)
      jv += J[j][i] * V[i];
    CHECK_CLOSE(ty[j], jv, 1e-12);
    lhs += W[j] * ty[j];
  }
  for (int i = 0; i < N; ++i)
    rhs += dx[i] * V[i];
  CHECK_CLOSE(lhs, rhs, 1e-12);
  CHECK_TRUE(dfs.p == NULL);
}

/* p[0] = x0^2 x1; r = k p[0] */
static double h(struct S *s, const double *x) {
  s->p[0] = x[0] * x[0] * x[1];
  return s->k * s->p[0];
}
/* The gradient of h into gx, with a zeroed shadow struct of its own. */
static void h_gradient(struct S *s, const double *x, double *gx) {
  struct S ds = {0};
  __enzyme_autodiff_void((void *)h, enzyme_dup, s, &ds, enzyme_dup, x, gx);
}

/* A dense view of `viewed` (__enzyme_todense): loads and stores by offset. */
static double viewed[N];
static double view_load(long offset) { return viewed[offset / 8]; }
static void view_store(double v, long offset) { viewed[offset / 8] = v; }

/* Forward over reverse: a Hessian-vector product whose gradient output is
 * passed enzyme_dupnoneed with a constant address (at -O0 the view's
 * shadow is read back from memory and may be null: the key of a scratch
 * shadow). */
static void check_hessian(void) {
  double hv[N] = {0}, hv2[N] = {0}, gx[N] = {0}, buf[1] = {0};
  struct S s = {buf, K}, ds = {0}, ds2 = {0};
  __enzyme_fwddiff_void((void *)h_gradient, enzyme_dup, &s, &ds, enzyme_dup,
                        X, V, enzyme_dupnoneed, (double *)0x1, hv);
  double want[N] = {2 * K * (X[1] * V[0] + X[0] * V[1]), 2 * K * X[0] * V[0],
                    0};
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(hv[i], want[i], 1e-12);
  CHECK_TRUE(ds.p == NULL);
  __enzyme_fwddiff_void((void *)h_gradient, enzyme_dup, &s, &ds2, enzyme_dup,
                        X, V, enzyme_dup, gx, hv2);
  CHECK_CLOSE(gx[0], 2 * K * X[0] * X[1], 1e-12);
  CHECK_CLOSE(gx[1], K * X[0] * X[0], 1e-12);
  double xp[N], xm[N], gp[N] = {0}, gm[N] = {0};
  for (int i = 0; i < N; ++i)
    xp[i] = X[i] + H * V[i], xm[i] = X[i] - H * V[i];
  h_gradient(&s, xp, gp);
  h_gradient(&s, xm, gm);
  /* The gradient's primal a dense view (the same key at -O0). */
  double hv3[N] = {0};
  struct S ds3 = {0};
  double *gview = __enzyme_todense((void *)view_load, (void *)view_store);
  __enzyme_fwddiff_void((void *)h_gradient, enzyme_dup, &s, &ds3, enzyme_dup,
                        X, V, enzyme_dup, gview, hv3);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(viewed[i], gx[i], 1e-12);
    CHECK_CLOSE(hv3[i], hv[i], 1e-12);
  }
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(hv2[i], hv[i], 1e-12);
    CHECK_CLOSE(hv[i], (gp[i] - gm[i]) / (2 * H), 1e-6);
  }
}

int main(void) {
  check_outputs();
  check_struct();
  check_both();
  check_hessian();
  return check_finish();
}
