/* Forward over reverse through checkpointed loops (docs/checkpointing.md):
 * Hessian-vector products (__enzyme_fwddiff of a gradient) through
 * adcc_checkpointed_steps (revolve, interval), adcc_checkpointed_while
 * (online), a loop marked ADCC_CHECKPOINT and nested checkpointed loops,
 * with the parameters duplicated or constant in the gradient and in the
 * outer request. Each against the same loop taped whole (to rounding) and
 * against central differences of the gradient, for several step counts
 * and snapshot budgets; the snapshots stay within the budget. */
#include "check.h"

#include <adcc.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_fwddiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);

enum { N = 3 }; /* state: y0, y1 and a step counter; params: 3 values */

static void step(double *y, const double *p) {
  double a = y[0];
  y[0] = y[0] + 0.1 * (p[0] * y[1] - sin(y[0]));
  y[1] = y[1] + 0.1 * (cos(a) - p[1] * y[1] * y[1]) * exp(-0.1 * p[2] * a);
  y[2] += 1;
}

static int running(const double *y, const double *p) { return y[2] < p[2]; }

static double loss(const double *y) { return y[0] * y[1] + y[1] * y[1]; }

static double taped(const double *y0, const double *p, long n, long s) {
  (void)s;
  double y[N] = {y0[0], y0[1], 0};
  for (long i = 0; i < n; ++i)
    step(y, p);
  return loss(y);
}

static double revolve(const double *y0, const double *p, long n, long s) {
  double y[N] = {y0[0], y0[1], 0};
  adcc_checkpointed_steps((void *)step, n, y, sizeof y, (void *)p,
                          N * sizeof(double), ADCC_REVOLVE, s);
  return loss(y);
}

static double interval(const double *y0, const double *p, long n, long s) {
  double y[N] = {y0[0], y0[1], 0};
  adcc_checkpointed_steps((void *)step, n, y, sizeof y, (void *)p,
                          N * sizeof(double), ADCC_INTERVAL, s);
  return loss(y);
}

/* (Runs while the counter is below p[2], which holds n.) */
static double online(const double *y0, const double *p, long n, long s) {
  (void)n;
  double y[N] = {y0[0], y0[1], 0};
  adcc_checkpointed_while((void *)step, (void *)running, y, sizeof y, (void *)p,
                          N * sizeof(double), s);
  return loss(y);
}

static double marked(const double *y0, const double *p, long n, long s) {
  double y[N] = {y0[0], y0[1], 0};
  ADCC_CHECKPOINT(s) for (long i = 0; i < n; ++i) step(y, p);
  return loss(y);
}

/* An outer step of 4 inner steps, checkpointed themselves. */
static void outer(double *y, const double *p) {
  adcc_checkpointed_steps((void *)step, 4, y, N * sizeof(double), (void *)p,
                          N * sizeof(double), ADCC_REVOLVE, 2);
  y[1] += 0.01 * y[0] * p[0];
}

static void outer_taped(double *y, const double *p) {
  for (int i = 0; i < 4; ++i)
    step(y, p);
  y[1] += 0.01 * y[0] * p[0];
}

static double nested(const double *y0, const double *p, long n, long s) {
  double y[N] = {y0[0], y0[1], 0};
  adcc_checkpointed_steps((void *)outer, n, y, sizeof y, (void *)p,
                          N * sizeof(double), ADCC_REVOLVE, s);
  return loss(y);
}

static double nested_taped(const double *y0, const double *p, long n, long s) {
  (void)s;
  double y[N] = {y0[0], y0[1], 0};
  for (long i = 0; i < n; ++i)
    outer_taped(y, p);
  return loss(y);
}

/* For each objective F: its gradient (grad_F, params duplicated; gradc_F,
   params constant) and forward mode over it: hvp_F (both directions),
   hvpc_F (params constant in both), mixed_F (params constant outside:
   d/dv of the params' adjoints). */
#define DERIVATIVES(F)                                                         \
  static void grad_##F(const double *y0, double *dy, const double *p,          \
                       double *dp, long n, long s) {                           \
    __enzyme_autodiff((void *)F, enzyme_dup, y0, dy, enzyme_dup, p, dp,        \
                      enzyme_const, n, enzyme_const, s);                       \
  }                                                                            \
  static void gradc_##F(const double *y0, double *dy, const double *p, long n, \
                        long s) {                                              \
    __enzyme_autodiff((void *)F, enzyme_dup, y0, dy, enzyme_const, p,          \
                      enzyme_const, n, enzyme_const, s);                       \
  }                                                                            \
  static void hvp_##F(const double *y0, const double *vy, const double *p,     \
                      const double *vp, long n, long s, double *g,             \
                      double *h) {                                             \
    double dy[2] = {0}, hy[2] = {0}, dp[N] = {0}, hp[N] = {0};                 \
    __enzyme_fwddiff((void *)grad_##F, enzyme_dup, y0, vy, enzyme_dup, dy, hy, \
                     enzyme_dup, p, vp, enzyme_dup, dp, hp, enzyme_const, n,   \
                     enzyme_const, s);                                         \
    for (int i = 0; i < 2; ++i)                                                \
      g[i] = dy[i], h[i] = hy[i];                                              \
    for (int i = 0; i < N; ++i)                                                \
      g[2 + i] = dp[i], h[2 + i] = hp[i];                                      \
  }                                                                            \
  static void hvpc_##F(const double *y0, const double *vy, const double *p,    \
                       long n, long s, double *h) {                            \
    double dy[2] = {0}, hy[2] = {0};                                           \
    __enzyme_fwddiff((void *)gradc_##F, enzyme_dup, y0, vy, enzyme_dup, dy,    \
                     hy, enzyme_const, p, enzyme_const, n, enzyme_const, s);   \
    h[0] = hy[0], h[1] = hy[1];                                                \
  }                                                                            \
  static void mixed_##F(const double *y0, const double *vy, const double *p,   \
                        long n, long s, double *h) {                           \
    double dy[2] = {0}, hy[2] = {0}, dp[N] = {0}, hp[N] = {0};                 \
    __enzyme_fwddiff((void *)grad_##F, enzyme_dup, y0, vy, enzyme_dup, dy, hy, \
                     enzyme_const, p, enzyme_dup, dp, hp, enzyme_const, n,     \
                     enzyme_const, s);                                         \
    for (int i = 0; i < N; ++i)                                                \
      h[i] = hp[i];                                                            \
  }

DERIVATIVES(taped)
DERIVATIVES(revolve)
DERIVATIVES(interval)
DERIVATIVES(online)
DERIVATIVES(marked)
DERIVATIVES(nested)
DERIVATIVES(nested_taped)

/* The gradient in split mode, differentiated in forward mode. */
#define SPLIT(F)                                                               \
  static void out_##F(const double *y0, const double *p, double *out, long n,  \
                      long s) {                                                \
    *out = F(y0, p, n, s);                                                     \
  }                                                                            \
  static void split_##F(const double *y0, double *dy, const double *p, long n, \
                        long s) {                                              \
    double out, dout = 0;                                                      \
    void *tape = __enzyme_augmentfwd((void *)out_##F, enzyme_dup, y0, dy,      \
                                     enzyme_const, p, enzyme_dup, &out, &dout, \
                                     enzyme_const, n, enzyme_const, s);        \
    dout = 1;                                                                  \
    __enzyme_reverse((void *)out_##F, enzyme_dup, y0, dy, enzyme_const, p,     \
                     enzyme_dup, &out, &dout, enzyme_const, n, enzyme_const,   \
                     s, tape);                                                 \
  }                                                                            \
  static void hvps_##F(const double *vy, const double *p, long n, long s,      \
                       double *h) {                                            \
    double dy[2] = {0};                                                        \
    __enzyme_fwddiff((void *)split_##F, enzyme_dup, Y0, vy, enzyme_dup, dy, h, \
                     enzyme_const, p, enzyme_const, n, enzyme_const, s);       \
  }

static const double Y0[2] = {0.3, 0.7}, VY[2] = {0.5, -0.2};

SPLIT(taped)
SPLIT(revolve)
SPLIT(interval)

typedef void (*grad_fn)(const double *, double *, const double *, double *,
                        long, long);
typedef void (*hvp_fn)(const double *, const double *, const double *,
                       const double *, long, long, double *, double *);
typedef void (*hvpc_fn)(const double *, const double *, const double *, long,
                        long, double *);

static const double VP[N] = {0.1, 0.3, 0};

/* The objective's gradient, and its HVP, against the taped loop's, with
   the parameters duplicated, constant, and constant outside only; the HVP
   against central differences of the gradient. */
static void check(const char *name, hvp_fn hvp, hvpc_fn hvpc, hvpc_fn mixed,
                  grad_fn grad, hvp_fn want_hvp, hvpc_fn want_hvpc,
                  hvpc_fn want_mixed, long n, long s) {
  double p[N] = {1.3, 0.4, (double)n};
  double g[2 + N], h[2 + N], wg[2 + N], wh[2 + N];
  adcc_checkpoint_reset_stats();
  hvp(Y0, VY, p, VP, n, s, g, h);
  adcc_checkpoint_stats st;
  adcc_checkpoint_get_stats(&st);
  CHECK_TRUE(st.snapshots_peak <= (size_t)(s + 2));
  want_hvp(Y0, VY, p, VP, n, s, wg, wh);
  for (int i = 0; i < 2 + N; ++i) {
    CHECK_CLOSE(g[i], wg[i], 1e-12);
    CHECK_CLOSE(h[i], wh[i], 1e-11);
  }
  /* Central differences of the gradient along (VY, VP). */
  const double eps = 1e-5;
  double yp[2], ym[2], pp[N], pm[N];
  for (int i = 0; i < 2; ++i)
    yp[i] = Y0[i] + eps * VY[i], ym[i] = Y0[i] - eps * VY[i];
  for (int i = 0; i < N; ++i)
    pp[i] = p[i] + eps * VP[i], pm[i] = p[i] - eps * VP[i];
  double gp[2 + N] = {0}, gm[2 + N] = {0};
  grad(yp, gp, pp, gp + 2, n, s);
  grad(ym, gm, pm, gm + 2, n, s);
  for (int i = 0; i < 2 + N; ++i)
    CHECK_CLOSE(h[i], (gp[i] - gm[i]) / (2 * eps), 1e-6);
  double hc[2], whc[2], hm[N], whm[N];
  hvpc(Y0, VY, p, n, s, hc);
  want_hvpc(Y0, VY, p, n, s, whc);
  for (int i = 0; i < 2; ++i)
    CHECK_CLOSE(hc[i], whc[i], 1e-11);
  mixed(Y0, VY, p, n, s, hm);
  want_mixed(Y0, VY, p, n, s, whm);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(hm[i], whm[i], 1e-11);
  if (check_failures)
    printf("  (%s, %ld steps, %ld snapshots)\n", name, n, s);
}

#define CHECK_ALL(F, T, n, s)                                                  \
  check(#F, hvp_##F, hvpc_##F, mixed_##F, grad_##F, hvp_##T, hvpc_##T,         \
        mixed_##T, n, s)

int main(void) {
  static const long Steps[] = {1, 2, 5, 17};
  static const long Budgets[] = {1, 3, 100};
  for (unsigned i = 0; i < sizeof Steps / sizeof *Steps; ++i)
    for (unsigned j = 0; j < sizeof Budgets / sizeof *Budgets; ++j) {
      long n = Steps[i], s = Budgets[j];
      CHECK_ALL(revolve, taped, n, s);
      CHECK_ALL(interval, taped, n, s);
      CHECK_ALL(online, taped, n, s);
      CHECK_ALL(marked, taped, n, s);
    }
  /* Forward over a gradient in split mode. */
  for (long n = 1; n <= 9; n += 4) {
    double p[N] = {1.3, 0.4, (double)n}, h[2] = {0}, w[2] = {0}, i[2] = {0};
    hvps_taped(VY, p, n, 2, w);
    hvps_revolve(VY, p, n, 2, h);
    hvps_interval(VY, p, n, 2, i);
    for (int k = 0; k < 2; ++k) {
      CHECK_CLOSE(h[k], w[k], 1e-11);
      CHECK_CLOSE(i[k], w[k], 1e-11);
    }
  }
  CHECK_ALL(nested, nested_taped, 6, 2);
  CHECK_ALL(nested, nested_taped, 3, 1);
  /* Revolve records one step at a time, with tangents too. */
  double p[N] = {1.3, 0.4, 40}, g[2 + N], h[2 + N];
  adcc_checkpoint_reset_stats();
  hvp_revolve(Y0, VY, p, VP, 40, 4, g, h);
  adcc_checkpoint_stats st;
  adcc_checkpoint_get_stats(&st);
  CHECK_TRUE(st.snapshots_peak <= 4);
  CHECK_TRUE(st.recorded_live_peak == 1);
  CHECK_TRUE(st.advances == adcc_revolve_advances(40, 4));
  return check_finish();
}
