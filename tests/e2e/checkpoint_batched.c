/* Batched gradients (enzyme_width) through checkpointed loops
 * (docs/checkpointing.md): the rows of a Jacobian, one per lane, through
 * adcc_checkpointed_steps (revolve, interval), adcc_checkpointed_while
 * (online) and a loop marked ADCC_CHECKPOINT, with the parameters
 * duplicated and constant, in combined and split mode; each against the
 * same loop taped whole (to rounding) and against central differences.
 * Batched forward mode (W tangents at once) through the call and the
 * annotation against the taped loop's. */
#include "check.h"

#include <adcc.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
extern void __enzyme_autodiff(void *, ...);
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern void __enzyme_fwddiff(void *, ...);

enum { N = 3, W = 3 }; /* state: y0, y1, a step counter; 3 lanes */

static void step(double *y, const double *p) {
  double a = y[0];
  y[0] = y[0] + 0.1 * (p[0] * y[1] - sin(y[0]));
  y[1] = y[1] + 0.1 * (cos(a) - p[1] * y[1] * y[1]);
  y[2] += 1;
}

static int running(const double *y, const double *p) { return y[2] < p[2]; }

/* Three outputs of the final state. */
static void outputs(const double *y, double *out) {
  out[0] = y[0] * y[1];
  out[1] = y[1] * y[1];
  out[2] = sin(y[0]);
}

static void taped(const double *y0, const double *p, double *out, long n,
                  long s) {
  (void)s;
  double y[N] = {y0[0], y0[1], 0};
  for (long i = 0; i < n; ++i)
    step(y, p);
  outputs(y, out);
}

static void revolve(const double *y0, const double *p, double *out, long n,
                    long s) {
  double y[N] = {y0[0], y0[1], 0};
  adcc_checkpointed_steps((void *)step, n, y, sizeof y, (void *)p,
                          N * sizeof(double), ADCC_REVOLVE, s);
  outputs(y, out);
}

static void interval(const double *y0, const double *p, double *out, long n,
                     long s) {
  double y[N] = {y0[0], y0[1], 0};
  adcc_checkpointed_steps((void *)step, n, y, sizeof y, (void *)p,
                          N * sizeof(double), ADCC_INTERVAL, s);
  outputs(y, out);
}

/* (Runs while the counter is below p[2], which holds n.) */
static void online(const double *y0, const double *p, double *out, long n,
                   long s) {
  (void)n;
  double y[N] = {y0[0], y0[1], 0};
  adcc_checkpointed_while((void *)step, (void *)running, y, sizeof y, (void *)p,
                          N * sizeof(double), s);
  outputs(y, out);
}

static void marked(const double *y0, const double *p, double *out, long n,
                   long s) {
  double y[N] = {y0[0], y0[1], 0};
  ADCC_CHECKPOINT(s) for (long i = 0; i < n; ++i) step(y, p);
  outputs(y, out);
}

/* For each objective F: jac_F, the rows of the Jacobian of the outputs in
   y0 and p (lane L seeds output L); jacc_F with p constant; split_F in
   split mode. dy: W x 2, dp: W x N. */
#define DERIVATIVES(F)                                                         \
  static void jac_##F(const double *y0, const double *p, long n, long s,       \
                      double *dy, double *dp) {                                \
    double out[3], d[W][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};                \
    __enzyme_autodiff((void *)F, enzyme_width, W, enzyme_dup, y0, dy, dy + 2,  \
                      dy + 4, enzyme_dup, p, dp, dp + N, dp + 2 * N,           \
                      enzyme_dup, out, d[0], d[1], d[2], enzyme_const, n,      \
                      enzyme_const, s);                                        \
  }                                                                            \
  static void jacc_##F(const double *y0, const double *p, long n, long s,      \
                       double *dy) {                                           \
    double out[3], d[W][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};                \
    __enzyme_autodiff((void *)F, enzyme_width, W, enzyme_dup, y0, dy, dy + 2,  \
                      dy + 4, enzyme_const, p, enzyme_dup, out, d[0], d[1],    \
                      d[2], enzyme_const, n, enzyme_const, s);                 \
  }                                                                            \
  static void split_##F(const double *y0, const double *p, long n, long s,     \
                        double *dy, double *dp) {                              \
    double out[3], d[W][3] = {{0}};                                            \
    void *tape = __enzyme_augmentfwd(                                          \
        (void *)F, enzyme_width, W, enzyme_dup, y0, dy, dy + 2, dy + 4,        \
        enzyme_dup, p, dp, dp + N, dp + 2 * N, enzyme_dup, out, d[0], d[1],    \
        d[2], enzyme_const, n, enzyme_const, s);                               \
    for (int l = 0; l < W; ++l)                                                \
      d[l][l] = 1;                                                             \
    __enzyme_reverse((void *)F, enzyme_width, W, enzyme_dup, y0, dy, dy + 2,   \
                     dy + 4, enzyme_dup, p, dp, dp + N, dp + 2 * N,            \
                     enzyme_dup, out, d[0], d[1], d[2], enzyme_const, n,       \
                     enzyme_const, s, tape);                                   \
  }

DERIVATIVES(taped)
DERIVATIVES(revolve)
DERIVATIVES(interval)
DERIVATIVES(online)
DERIVATIVES(marked)

typedef void (*jac_fn)(const double *, const double *, long, long, double *,
                       double *);
typedef void (*jacc_fn)(const double *, const double *, long, long, double *);

static const double Y0[2] = {0.3, 0.7};

static void check(const char *name,
                  void (*f)(const double *, const double *, double *, long,
                            long),
                  jac_fn jac, jacc_fn jacc, jac_fn split, long n, long s) {
  double p[N] = {1.3, 0.4, (double)n};
  double dy[W * 2] = {0}, dp[W * N] = {0}, wy[W * 2] = {0}, wp[W * N] = {0};
  jac(Y0, p, n, s, dy, dp);
  jac_taped(Y0, p, n, s, wy, wp);
  for (int i = 0; i < W * 2; ++i)
    CHECK_CLOSE(dy[i], wy[i], 1e-12);
  for (int i = 0; i < W * N; ++i)
    CHECK_CLOSE(dp[i], wp[i], 1e-12);
  /* Central differences: column j of the Jacobian in y0. */
  const double eps = 1e-6;
  for (int j = 0; j < 2; ++j) {
    double yp[2] = {Y0[0], Y0[1]}, ym[2] = {Y0[0], Y0[1]}, op[3], om[3];
    yp[j] += eps, ym[j] -= eps;
    f(yp, p, op, n, s);
    f(ym, p, om, n, s);
    for (int l = 0; l < W; ++l)
      CHECK_CLOSE(dy[2 * l + j], (op[l] - om[l]) / (2 * eps), 1e-7);
  }
  double cy[W * 2] = {0}, wcy[W * 2] = {0};
  jacc(Y0, p, n, s, cy);
  jacc_taped(Y0, p, n, s, wcy);
  for (int i = 0; i < W * 2; ++i)
    CHECK_CLOSE(cy[i], wcy[i], 1e-12);
  double sy[W * 2] = {0}, sp[W * N] = {0}, wsy[W * 2] = {0}, wsp[W * N] = {0};
  split(Y0, p, n, s, sy, sp);
  split_taped(Y0, p, n, s, wsy, wsp);
  for (int i = 0; i < W * 2; ++i)
    CHECK_CLOSE(sy[i], wsy[i], 1e-12);
  for (int i = 0; i < W * N; ++i)
    CHECK_CLOSE(sp[i], wsp[i], 1e-12);
  if (check_failures)
    printf("  (%s, %ld steps, %ld snapshots)\n", name, n, s);
}

#define CHECK_ALL(F, n, s) check(#F, F, jac_##F, jacc_##F, split_##F, n, s)

/* Batched forward mode: W tangents of the outputs at once, through the
   call (params duplicated) and the annotation (params constant). */
#define TANGENTS(F)                                                            \
  static void tan_##F(const double *p, long n, long s, double *t) {            \
    double out[3], ty[W][2] = {{1, 0}, {0, 1}, {0.5, -0.5}};                   \
    double tp[W][N] = {{0.1, 0, 0}, {0, 0.2, 0}, {0.3, 0.1, 0}};               \
    __enzyme_fwddiff((void *)F, enzyme_width, W, enzyme_dup, Y0, ty[0], ty[1], \
                     ty[2], enzyme_dup, p, tp[0], tp[1], tp[2], enzyme_dup,    \
                     out, t, t + 3, t + 6, enzyme_const, n, enzyme_const, s);  \
  }                                                                            \
  static void tanc_##F(const double *p, long n, long s, double *t) {           \
    double out[3], ty[W][2] = {{1, 0}, {0, 1}, {0.5, -0.5}};                   \
    __enzyme_fwddiff((void *)F, enzyme_width, W, enzyme_dup, Y0, ty[0], ty[1], \
                     ty[2], enzyme_const, p, enzyme_dup, out, t, t + 3, t + 6, \
                     enzyme_const, n, enzyme_const, s);                        \
  }

TANGENTS(taped)
TANGENTS(revolve)
TANGENTS(marked)

int main(void) {
  static const long Steps[] = {1, 2, 5, 17};
  static const long Budgets[] = {1, 3, 100};
  for (unsigned i = 0; i < sizeof Steps / sizeof *Steps; ++i)
    for (unsigned j = 0; j < sizeof Budgets / sizeof *Budgets; ++j) {
      long n = Steps[i], s = Budgets[j];
      CHECK_ALL(revolve, n, s);
      CHECK_ALL(interval, n, s);
      CHECK_ALL(online, n, s);
      CHECK_ALL(marked, n, s);
    }
  for (long n = 1; n <= 17; n += 8) {
    double p[N] = {1.3, 0.4, (double)n}, t[3 * W], w[3 * W], c[3 * W];
    tan_taped(p, n, 3, w);
    tan_revolve(p, n, 3, t);
    tan_marked(p, n, 3, c);
    for (int i = 0; i < 3 * W; ++i) {
      CHECK_CLOSE(t[i], w[i], 1e-12);
      CHECK_CLOSE(c[i], w[i], 1e-12);
    }
    tanc_taped(p, n, 3, w);
    tanc_revolve(p, n, 3, t);
    tanc_marked(p, n, 3, c);
    for (int i = 0; i < 3 * W; ++i) {
      CHECK_CLOSE(t[i], w[i], 1e-12);
      CHECK_CLOSE(c[i], w[i], 1e-12);
    }
  }
  /* Revolve records one step at a time for all lanes. */
  double p[N] = {1.3, 0.4, 40}, dy[W * 2] = {0}, dp[W * N] = {0};
  adcc_checkpoint_reset_stats();
  jac_revolve(Y0, p, 40, 4, dy, dp);
  adcc_checkpoint_stats st;
  adcc_checkpoint_get_stats(&st);
  CHECK_TRUE(st.snapshots_peak <= 4);
  CHECK_TRUE(st.recorded_live_peak == 1);
  CHECK_TRUE(st.advances == adcc_revolve_advances(40, 4));
  return check_finish();
}
