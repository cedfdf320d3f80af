/* Checkpointed loops written as annotations (docs/checkpointing.md):
 * ADCC_CHECKPOINT(snapshots) and ADCC_CHECKPOINT(snapshots, ADCC_INTERVAL)
 * before a counted `for`, and before a `while` whose count is known only
 * at its end (the online schedule). The loop's body is inline code over
 * local variables and a local array (the state adcc finds) that calls a
 * function (which allocates scratch memory) and reads a table it never
 * writes (not in the snapshots).
 * Gradients equal those of the same loop taped whole, for several counts
 * and budgets (1 snapshot, more snapshots than steps); central
 * differences and forward mode agree; the primal is the plain loop's. */
#include "check.h"

#include <adcc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double omega, damping, h, t_end;
} params;

enum { N = 4, TABLE = 64 };

/* (Scratch from the heap, kept in a local pointer: the callee's own.) */
static void rhs(const double *y, double *dy, const params *p) {
  double *scratch = malloc(2 * sizeof(double));
  scratch[0] = sin(y[0]);
  scratch[1] = y[0] * y[1];
  dy[0] = y[1];
  dy[1] = -p->omega * p->omega * scratch[0] - p->damping * y[1];
  dy[2] = y[3];
  dy[3] = -0.1 * y[2] + 0.1 * scratch[1];
  free(scratch);
}

static void fill(double *table) {
  for (int i = 0; i < TABLE; ++i)
    table[i] = 1.0 + 0.01 * i;
}

/* The loop body of every variant: a midpoint step, a running cost. */
#define BODY                                                                   \
  {                                                                            \
    double k[N], mid[N];                                                       \
    rhs(y, k, p);                                                              \
    for (int i = 0; i < N; ++i)                                                \
      mid[i] = y[i] + 0.5 * p->h * k[i];                                       \
    rhs(mid, k, p);                                                            \
    for (int i = 0; i < N; ++i)                                                \
      y[i] += p->h * k[i] * table[(steps_done + i) % TABLE];                   \
    cost += p->h * y[0] * y[0];                                                \
    time += p->h;                                                              \
    ++steps_done;                                                              \
  }

#define PROLOGUE                                                               \
  double y[N], table[TABLE], cost = 0, time = 0;                               \
  int steps_done = 0;                                                          \
  memcpy(y, y0, sizeof y);                                                     \
  fill(table);

#define RESULT (y[0] * y[1] + y[2] * y[2] + cost + 0 * time)

static double taped(const double *y0, const params *p, int n) {
  PROLOGUE
  for (int t = 0; t < n; ++t)
    BODY
  return RESULT;
}

static double revolve(const double *y0, const params *p, int n,
                      long snapshots) {
  PROLOGUE
  ADCC_CHECKPOINT(snapshots) for (int t = 0; t < n; ++t) BODY
  return RESULT;
}

static double interval(const double *y0, const params *p, int n,
                       long snapshots) {
  PROLOGUE
  ADCC_CHECKPOINT(snapshots, ADCC_INTERVAL)
  for (int t = 0; t < n; ++t)
    BODY
  return RESULT;
}

static double taped_while(const double *y0, const params *p) {
  PROLOGUE
  while (time < p->t_end - 1e-9)
    BODY
  return RESULT;
}

static double online(const double *y0, const params *p, long snapshots) {
  PROLOGUE
  ADCC_CHECKPOINT(snapshots) while (time < p->t_end - 1e-9) BODY
  return RESULT;
}

static const double y_init[N] = {0.4, -0.1, 0.3, 0.2};

static void compare(const double *dy, const params *dp, const double *ry,
                    const params *rp) {
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dy[i], ry[i], 1e-12);
  CHECK_CLOSE(dp->omega, rp->omega, 1e-12);
  CHECK_CLOSE(dp->damping, rp->damping, 1e-12);
  CHECK_CLOSE(dp->h, rp->h, 1e-12);
}

static void counted(void) {
  static const int counts[] = {1, 2, 5, 17};
  static const long budgets[] = {1, 3, 100};
  for (unsigned a = 0; a < sizeof counts / sizeof *counts; ++a) {
    int n = counts[a];
    params p = {1.3, 0.2, 0.05, 0}, rp = {0};
    double ry[N] = {0};
    __enzyme_autodiff((void *)taped, enzyme_dup, y_init, ry, enzyme_dup, &p,
                      &rp, enzyme_const, n);
    for (unsigned b = 0; b < sizeof budgets / sizeof *budgets; ++b) {
      long s = budgets[b];
      for (int schedule = ADCC_REVOLVE; schedule <= ADCC_INTERVAL;
           ++schedule) {
        double dy[N] = {0};
        params dp = {0};
        adcc_checkpoint_reset_stats();
        if (schedule == ADCC_REVOLVE)
          __enzyme_autodiff((void *)revolve, enzyme_dup, y_init, dy,
                            enzyme_dup, &p, &dp, enzyme_const, n,
                            enzyme_const, s);
        else
          __enzyme_autodiff((void *)interval, enzyme_dup, y_init, dy,
                            enzyme_dup, &p, &dp, enzyme_const, n,
                            enzyme_const, s);
        compare(dy, &dp, ry, &rp);
        adcc_checkpoint_stats st;
        adcc_checkpoint_get_stats(&st);
        CHECK_TRUE(st.recorded == (size_t)n && st.reversed == (size_t)n);
        CHECK_TRUE(st.snapshots_peak <= (size_t)s);
        /* The table is only read: the snapshots do not hold it. */
        CHECK_TRUE(st.snapshot_bytes_peak <
                   (size_t)s * TABLE * sizeof(double));
        if (schedule == ADCC_REVOLVE)
          CHECK_TRUE(st.advances == adcc_revolve_advances(n, s));
      }
    }
  }
}

static void online_schedule(void) {
  params p = {1.3, 0.2, 0.05, 1.0}, rp = {0};
  double ry[N] = {0};
  __enzyme_autodiff((void *)taped_while, enzyme_dup, y_init, ry, enzyme_dup,
                    &p, &rp);
  static const long budgets[] = {1, 2, 5, 40};
  for (unsigned b = 0; b < sizeof budgets / sizeof *budgets; ++b) {
    double dy[N] = {0};
    params dp = {0};
    adcc_checkpoint_reset_stats();
    __enzyme_autodiff((void *)online, enzyme_dup, y_init, dy, enzyme_dup, &p,
                      &dp, enzyme_const, budgets[b]);
    compare(dy, &dp, ry, &rp);
    adcc_checkpoint_stats st;
    adcc_checkpoint_get_stats(&st);
    /* 20 iterations and the one that finds the condition false. */
    CHECK_TRUE(st.recorded == 21 && st.reversed == 21);
    CHECK_TRUE(st.snapshots_peak <= (size_t)budgets[b]);
  }
}

/* Central differences and forward mode of the annotated loops. */
static void differences(void) {
  params p = {1.3, 0.2, 0.05, 0.6};
  int n = 12;
  double dy[N] = {0};
  params dp = {0};
  __enzyme_autodiff((void *)revolve, enzyme_dup, y_init, dy, enzyme_dup, &p,
                    &dp, enzyme_const, n, enzyme_const, 2L);
  double e = 1e-6;
  for (int i = 0; i < N; ++i) {
    double yp[N], ym[N];
    memcpy(yp, y_init, sizeof yp);
    memcpy(ym, y_init, sizeof ym);
    yp[i] += e;
    ym[i] -= e;
    CHECK_CLOSE(dy[i], (revolve(yp, &p, n, 2) - revolve(ym, &p, n, 2)) / (2 * e),
                1e-6);
    double ty[N] = {0};
    ty[i] = 1;
    params tp = {0};
    CHECK_CLOSE(__enzyme_fwddiff((void *)interval, enzyme_dup, y_init, ty,
                                 enzyme_dup, &p, &tp, enzyme_const, n,
                                 enzyme_const, 3L),
                dy[i], 1e-12);
  }
  params pp = p, pm = p;
  pp.omega += e;
  pm.omega -= e;
  CHECK_CLOSE(dp.omega,
              (interval(y_init, &pp, n, 4) - interval(y_init, &pm, n, 4)) /
                  (2 * e),
              1e-6);
  double wy[N] = {0};
  params wp = {0};
  __enzyme_autodiff((void *)online, enzyme_dup, y_init, wy, enzyme_dup, &p,
                    &wp, enzyme_const, 3L);
  CHECK_CLOSE(wp.damping,
              (online(y_init, &(params){1.3, 0.2 + e, 0.05, 0.6}, 3) -
               online(y_init, &(params){1.3, 0.2 - e, 0.05, 0.6}, 3)) /
                  (2 * e),
              1e-6);
}

int main(void) {
  counted();
  online_schedule();
  differences();
  /* The primal alone: the plain loop's values. */
  params p = {1.3, 0.2, 0.05, 0.7};
  CHECK_CLOSE(revolve(y_init, &p, 30, 2), taped(y_init, &p, 30), 1e-15);
  CHECK_CLOSE(interval(y_init, &p, 0, 2), taped(y_init, &p, 0), 1e-15);
  CHECK_CLOSE(online(y_init, &p, 2), taped_while(y_init, &p), 1e-15);
  return check_finish();
}
