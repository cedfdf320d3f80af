/* Checkpointed loops (docs/checkpointing.md) whose steps write values with
 * derivatives through a null shadow pointer and read them back: the state
 * holds a pointer to a work buffer taken from a struct passed with a
 * shadow the caller zeroes (`struct W dw = {0}`). The steps' derivatives
 * had no scratch shadows in a module with checkpointed loops (at -O0 the
 * write went to a sink, the read gave zero: a silent wrong gradient); the
 * steps run again from snapshots meet the same scratch. adcc_checkpointed_
 * steps (revolve, interval) and adcc_checkpointed_while, for several
 * step counts and snapshot budgets; against the same loop taped whole and
 * central differences; forward over reverse (Hessian-vector products)
 * against the taped loop's. (A loop marked ADCC_CHECKPOINT may not write
 * memory outside its state: an error at the loop.) */
#include "check.h"

#include <adcc.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

/* The state: two values, a step counter, and a pointer to a work buffer
 * that each step writes and reads back (its shadow null: the caller's
 * shadow struct was zeroed). */
struct St {
  double y[2];
  double count;
  double *work;
};

struct W {
  double *work;
  double k;
};

static void step(struct St *st, const double *k) {
  st->work[0] = st->y[0] * st->y[1];
  st->work[1] = sin(st->y[0]) * k[0];
  st->y[0] = st->y[0] + 0.1 * (st->work[1] - st->work[0] * st->work[0]);
  st->y[1] = st->y[1] + 0.1 * cos(st->work[0]) * k[0];
  st->count += 1;
}

static int running(const struct St *st, const double *k) {
  return st->count < k[1];
}

static double loss(const struct St *st) {
  return st->y[0] * st->y[1] + st->y[1] * st->y[1];
}

static double taped(const double *y0, struct W *w, long n, long s) {
  (void)s;
  struct St st = {{y0[0], y0[1]}, 0, w->work};
  double k[2] = {w->k, (double)n};
  for (long i = 0; i < n; ++i)
    step(&st, k);
  return loss(&st);
}

static double revolve(const double *y0, struct W *w, long n, long s) {
  struct St st = {{y0[0], y0[1]}, 0, w->work};
  double k[2] = {w->k, (double)n};
  adcc_checkpointed_steps((void *)step, n, &st, sizeof st, k, sizeof k,
                          ADCC_REVOLVE, s);
  return loss(&st);
}

static double interval(const double *y0, struct W *w, long n, long s) {
  struct St st = {{y0[0], y0[1]}, 0, w->work};
  double k[2] = {w->k, (double)n};
  adcc_checkpointed_steps((void *)step, n, &st, sizeof st, k, sizeof k,
                          ADCC_INTERVAL, s);
  return loss(&st);
}

/* (Runs while the counter is below k[1], which holds n.) */
static double online(const double *y0, struct W *w, long n, long s) {
  struct St st = {{y0[0], y0[1]}, 0, w->work};
  double k[2] = {w->k, (double)n};
  adcc_checkpointed_while((void *)step, (void *)running, &st, sizeof st, k,
                          sizeof k, s);
  return loss(&st);
}

typedef double (*objective)(const double *, struct W *, long, long);

/* The gradient with respect to y0 and k, the work buffer's shadow null. */
#define GRADIENT(F)                                                            \
  static void grad_##F(const double *y0, double *dy, struct W *w, double *dk, \
                       long n, long s) {                                       \
    struct W dw = {0};                                                         \
    __enzyme_autodiff((void *)F, enzyme_dup, y0, dy, enzyme_dup, w, &dw,       \
                      enzyme_const, n, enzyme_const, s);                       \
    *dk = dw.k;                                                                \
  }

GRADIENT(taped)
GRADIENT(revolve)
GRADIENT(interval)
GRADIENT(online)

typedef void (*gradient)(const double *, double *, struct W *, double *, long,
                         long);

static const double Y0[2] = {0.3, 0.7};

static void check(const char *name, objective f, gradient g, long n, long s) {
  double buf[2] = {0}, bufm[2], bufp[2];
  struct W w = {buf, 0.8};
  CHECK_CLOSE(f(Y0, &w, n, s), taped(Y0, &w, n, s), 1e-14);
  double dy[2] = {0}, dk = 0, wy[2] = {0}, wk = 0;
  g(Y0, dy, &w, &dk, n, s);
  grad_taped(Y0, wy, &w, &wk, n, s);
  for (int i = 0; i < 2; ++i)
    CHECK_CLOSE(dy[i], wy[i], 1e-12);
  CHECK_CLOSE(dk, wk, 1e-12);
  const double eps = 1e-6;
  for (int i = 0; i < 2; ++i) {
    double yp[2] = {Y0[0], Y0[1]}, ym[2] = {Y0[0], Y0[1]};
    yp[i] += eps, ym[i] -= eps;
    CHECK_CLOSE(dy[i], (f(yp, &w, n, s) - f(ym, &w, n, s)) / (2 * eps), 1e-7);
  }
  struct W wp = {bufp, w.k + eps}, wm = {bufm, w.k - eps};
  CHECK_CLOSE(dk, (f(Y0, &wp, n, s) - f(Y0, &wm, n, s)) / (2 * eps), 1e-7);
  if (check_failures)
    printf("  (%s, %ld steps, %ld snapshots)\n", name, n, s);
}

/* Forward over reverse: d/dv of the gradient along (v, 0). */
static void hvp(gradient g, const double *v, long n, long s, double *h) {
  double buf[2] = {0};
  struct W w = {buf, 0.8}, tw = {0};
  double dy[2] = {0}, hy[2] = {0}, dk = 0, hk = 0;
  __enzyme_fwddiff((void *)g, enzyme_dup, Y0, v, enzyme_dup, dy, hy,
                   enzyme_dup, &w, &tw, enzyme_dup, &dk, &hk, enzyme_const, n,
                   enzyme_const, s);
  h[0] = hy[0], h[1] = hy[1], h[2] = hk;
}

int main(void) {
  static const long Steps[] = {1, 2, 5, 9};
  static const long Budgets[] = {1, 2, 100};
  for (unsigned a = 0; a < 4; ++a)
    for (unsigned b = 0; b < 3; ++b) {
      long n = Steps[a], s = Budgets[b];
      check("revolve", revolve, grad_revolve, n, s);
      check("interval", interval, grad_interval, n, s);
      check("online", online, grad_online, n, s);
    }
  const double v[2] = {0.5, -0.2};
  for (unsigned b = 0; b < 3; ++b) {
    double h[3], want[3];
    hvp(grad_revolve, v, 9, Budgets[b], h);
    hvp(grad_taped, v, 9, Budgets[b], want);
    for (int i = 0; i < 3; ++i)
      CHECK_CLOSE(h[i], want[i], 1e-11);
  }
  return check_finish();
}
