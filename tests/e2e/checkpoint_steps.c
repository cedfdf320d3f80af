/* Checkpointed time loops (docs/checkpointing.md): gradients through
 * adcc_checkpointed_steps with the binomial (revolve) and fixed-interval
 * schedules, and through adcc_checkpointed_while (online schedule), equal
 * those of the same loop taped whole, for several step counts and
 * snapshot budgets (1 snapshot, more snapshots than steps); revolve runs
 * exactly Griewank's minimal number of step advances (computed here by its
 * recursion) and holds at most the snapshots allowed; central differences
 * and forward mode agree. The step calls a function, allocates, and reads
 * a global. */
#include "check.h"

#include <adcc.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef struct {
  double omega, damping, h, t_end;
} params;

enum { N = 5 }; /* 4 values and the time */

double gravity = 9.81; /* read by the steps, never written */

static void rhs(const double *y, double *dy, const params *p) {
  dy[0] = y[1];
  dy[1] = -p->omega * p->omega * sin(y[0]) - p->damping * y[1];
  dy[2] = y[3];
  dy[3] = -gravity * 0.01 * y[2] + 0.1 * y[0] * y[1];
}

/* One RK4 step of the state; scratch from the heap. */
static void step(double *y, const params *p) {
  double *k = malloc(5 * 4 * sizeof(double));
  double *k1 = k, *k2 = k + 4, *k3 = k + 8, *k4 = k + 12, *t = k + 16;
  double h = p->h;
  rhs(y, k1, p);
  for (int i = 0; i < 4; ++i)
    t[i] = y[i] + 0.5 * h * k1[i];
  rhs(t, k2, p);
  for (int i = 0; i < 4; ++i)
    t[i] = y[i] + 0.5 * h * k2[i];
  rhs(t, k3, p);
  for (int i = 0; i < 4; ++i)
    t[i] = y[i] + h * k3[i];
  rhs(t, k4, p);
  for (int i = 0; i < 4; ++i)
    y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  y[4] += h;
  free(k);
}

static int running(const double *y, const params *p) {
  return y[4] < p->t_end - 1e-9;
}

static double energy(const double *y) {
  return 0.5 * y[1] * y[1] + (1 - cos(y[0])) + y[2] * y[2] * y[3];
}

static double taped(const double *y0, const params *p, long n) {
  double y[N];
  memcpy(y, y0, sizeof y);
  for (long i = 0; i < n; ++i)
    step(y, p);
  return energy(y);
}

static double checkpointed(const double *y0, const params *p, long n,
                           int schedule, long snapshots) {
  double y[N];
  memcpy(y, y0, sizeof y);
  adcc_checkpointed_steps((void *)step, n, y, sizeof y, (void *)p, sizeof *p,
                          schedule, snapshots);
  return energy(y);
}

static double taped_while(const double *y0, const params *p) {
  double y[N];
  memcpy(y, y0, sizeof y);
  while (running(y, p))
    step(y, p);
  return energy(y);
}

static double online(const double *y0, const params *p, long snapshots) {
  double y[N];
  memcpy(y, y0, sizeof y);
  adcc_checkpointed_while((void *)step, (void *)running, y, sizeof y,
                          (void *)p, sizeof *p, snapshots);
  return energy(y);
}

/* Griewank's recursion for the fewest advances, independent of the
   runtime's closed form: t(1, s) = 0, t(l, 1) = l(l-1)/2,
   t(l, s) = min over 0 < j < l of j + t(l - j, s - 1) + t(j, s). */
static long optimal[64][16];
static long fewest(long l, long s) {
  if (l <= 1)
    return 0;
  if (s == 1)
    return l * (l - 1) / 2;
  if (optimal[l][s])
    return optimal[l][s];
  long best = -1;
  for (long j = 1; j < l; ++j) {
    long t = j + fewest(l - j, s - 1) + fewest(j, s);
    if (best < 0 || t < best)
      best = t;
  }
  return optimal[l][s] = best;
}

static const double y_init[N] = {0.4, -0.1, 0.3, 0.2, 0};

static void gradient_taped(long n, double *dy, params *dp) {
  params p = {1.3, 0.2, 0.05, 0};
  memset(dy, 0, N * sizeof *dy);
  memset(dp, 0, sizeof *dp);
  __enzyme_autodiff((void *)taped, enzyme_dup, y_init, dy, enzyme_dup, &p, dp,
                    enzyme_const, n);
}

static void compare(const double *dy, const params *dp, const double *ry,
                    const params *rp) {
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(dy[i], ry[i], 1e-12);
  CHECK_CLOSE(dp->omega, rp->omega, 1e-12);
  CHECK_CLOSE(dp->damping, rp->damping, 1e-12);
  CHECK_CLOSE(dp->h, rp->h, 1e-12);
}

static void schedules(void) {
  static const long counts[] = {1, 2, 3, 5, 17, 60};
  static const long budgets[] = {1, 2, 3, 7, 100};
  for (unsigned a = 0; a < sizeof counts / sizeof *counts; ++a) {
    long n = counts[a];
    double ry[N], dy[N];
    params rp, dp;
    gradient_taped(n, ry, &rp);
    for (unsigned b = 0; b < sizeof budgets / sizeof *budgets; ++b) {
      long s = budgets[b];
      for (int schedule = ADCC_REVOLVE; schedule <= ADCC_INTERVAL;
           ++schedule) {
        params p = {1.3, 0.2, 0.05, 0};
        memset(dy, 0, sizeof dy);
        memset(&dp, 0, sizeof dp);
        adcc_checkpoint_reset_stats();
        __enzyme_autodiff((void *)checkpointed, enzyme_dup, y_init, dy,
                          enzyme_dup, &p, &dp, enzyme_const, n, enzyme_const,
                          schedule, enzyme_const, s);
        compare(dy, &dp, ry, &rp);
        adcc_checkpoint_stats st;
        adcc_checkpoint_get_stats(&st);
        CHECK_TRUE(st.recorded == (size_t)n);
        CHECK_TRUE(st.reversed == (size_t)n);
        CHECK_TRUE(st.snapshots_peak <= (size_t)s);
        CHECK_TRUE(st.snapshot_bytes_peak <= (size_t)s * sizeof(double) * N);
        if (schedule == ADCC_REVOLVE) {
          CHECK_TRUE(st.advances == (size_t)(s >= n ? n - 1 : fewest(n, s)));
          CHECK_TRUE(st.advances == adcc_revolve_advances(n, s));
          CHECK_TRUE(st.recorded_live_peak == 1);
        } else {
          long every = (n + s - 1) / s;
          CHECK_TRUE(st.recorded_live_peak == (size_t)every);
          CHECK_TRUE(st.advances == (size_t)(n - (n - 1) % every - 1));
        }
      }
    }
  }
}

static void online_schedule(void) {
  double ry[N] = {0}, dy[N];
  params p = {1.3, 0.2, 0.05, 1.0}, rp = {0}, dp;
  __enzyme_autodiff((void *)taped_while, enzyme_dup, y_init, ry, enzyme_dup,
                    &p, &rp);
  static const long budgets[] = {1, 2, 3, 5, 40};
  for (unsigned b = 0; b < sizeof budgets / sizeof *budgets; ++b) {
    memset(dy, 0, sizeof dy);
    memset(&dp, 0, sizeof dp);
    adcc_checkpoint_reset_stats();
    __enzyme_autodiff((void *)online, enzyme_dup, y_init, dy, enzyme_dup, &p,
                      &dp, enzyme_const, budgets[b]);
    compare(dy, &dp, ry, &rp);
    adcc_checkpoint_stats st;
    adcc_checkpoint_get_stats(&st);
    CHECK_TRUE(st.recorded == 20 && st.reversed == 20);
    CHECK_TRUE(st.snapshots_peak <= (size_t)budgets[b]);
  }
}

/* Central differences of the checkpointed loss, and forward mode. */
static void differences(void) {
  params p = {1.3, 0.2, 0.05, 0};
  double dy[N] = {0};
  params dp = {0};
  long n = 25;
  __enzyme_autodiff((void *)checkpointed, enzyme_dup, y_init, dy, enzyme_dup,
                    &p, &dp, enzyme_const, n, enzyme_const, ADCC_REVOLVE,
                    enzyme_const, 3L);
  double e = 1e-6;
  for (int i = 0; i < 4; ++i) {
    double yp[N], ym[N];
    memcpy(yp, y_init, sizeof yp);
    memcpy(ym, y_init, sizeof ym);
    yp[i] += e;
    ym[i] -= e;
    double fd = (checkpointed(yp, &p, n, ADCC_REVOLVE, 3) -
                 checkpointed(ym, &p, n, ADCC_REVOLVE, 3)) /
                (2 * e);
    CHECK_CLOSE(dy[i], fd, 1e-6);
    /* forward mode through the checkpointed loop: the same column */
    double ty[N] = {0};
    ty[i] = 1;
    params tp = {0};
    double t = __enzyme_fwddiff((void *)checkpointed, enzyme_dup, y_init, ty,
                                enzyme_dup, &p, &tp, enzyme_const, n,
                                enzyme_const, ADCC_REVOLVE, enzyme_const, 3L);
    CHECK_CLOSE(t, dy[i], 1e-12);
  }
  params pp = p, pm = p;
  pp.omega += e;
  pm.omega -= e;
  CHECK_CLOSE(dp.omega,
              (checkpointed(y_init, &pp, n, ADCC_INTERVAL, 4) -
               checkpointed(y_init, &pm, n, ADCC_INTERVAL, 4)) /
                  (2 * e),
              1e-6);
  double ty[N] = {0};
  params tp = {1, 0, 0, 0};
  CHECK_CLOSE(__enzyme_fwddiff((void *)checkpointed, enzyme_dup, y_init, ty,
                               enzyme_dup, &p, &tp, enzyme_const, n,
                               enzyme_const, ADCC_INTERVAL, enzyme_const, 4L),
              dp.omega, 1e-12);
}

int main(void) {
  schedules();
  online_schedule();
  differences();
  /* The primal alone: the same as the plain loop. */
  params p = {1.3, 0.2, 0.05, 0};
  CHECK_CLOSE(checkpointed(y_init, &p, 30, ADCC_REVOLVE, 2),
              taped(y_init, &p, 30), 1e-15);
  return check_finish();
}
