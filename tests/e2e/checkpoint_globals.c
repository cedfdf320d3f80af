/* Checkpointed steps that write global variables (docs/checkpointing.md):
 * the snapshots hold the globals the steps write next to the state, so a
 * value that one step leaves in a global and a later step reads is
 * restored when the gradient runs steps again. A floating-point global
 * (a running integral the loss reads) and an integer one (a step counter
 * that selects a coefficient); through adcc_checkpointed_steps (revolve,
 * interval), adcc_checkpointed_while and an annotated loop. Gradients
 * equal the taped loop's; after a gradient the globals hold the values
 * the primal leaves. */
#include "check.h"

#include <adcc.h>
#include <math.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

/* (-DSTATIC_GLOBALS: static; shadows adcc zeroes after each derivative
 * call, which it did after each step's too, until 2026-12-06.) */
#ifdef STATIC_GLOBALS
#define VISIBILITY static
#else
#define VISIBILITY
#endif
VISIBILITY double integral; /* written by every step, read by the next and
                               the loss */
VISIBILITY int counter;     /* which coefficient the next step uses */

typedef struct {
  double a, h, t_end;
} params;

static const double coef[3] = {1.0, 0.5, 0.25};

static void step(double *y, const params *p) {
  double c = coef[counter % 3];
  double y0 = y[0];
  y[0] += p->h * (y[1] + 0.1 * integral);
  y[1] -= p->h * p->a * c * sin(y0);
  y[2] += p->h;
  integral += p->h * y[0] * y[0];
  ++counter;
}

static int running(const double *y, const params *p) {
  return y[2] < p->t_end - 1e-9;
}

#define START                                                                  \
  double y[3] = {y0[0], y0[1], 0};                                             \
  integral = 0;                                                                \
  counter = 0;

static double taped(const double *y0, const params *p, long n) {
  START
  for (long i = 0; i < n; ++i)
    step(y, p);
  return y[0] * y[1] + integral;
}

static double checkpointed(const double *y0, const params *p, long n,
                           int schedule, long snapshots) {
  START
  adcc_checkpointed_steps((void *)step, n, y, sizeof y, (void *)p, sizeof *p,
                          schedule, snapshots);
  return y[0] * y[1] + integral;
}

static double taped_while(const double *y0, const params *p) {
  START
  while (running(y, p))
    step(y, p);
  return y[0] * y[1] + integral;
}

static double online(const double *y0, const params *p, long snapshots) {
  START
  adcc_checkpointed_while((void *)step, (void *)running, y, sizeof y,
                          (void *)p, sizeof *p, snapshots);
  return y[0] * y[1] + integral;
}

static double annotated(const double *y0, const params *p, long n,
                        long snapshots) {
  START
  ADCC_CHECKPOINT(snapshots) for (long i = 0; i < n; ++i) step(y, p);
  return y[0] * y[1] + integral;
}

static const double y_init[2] = {0.4, -0.2};

static void compare(const double *dy, const params *dp, const double *ry,
                    const params *rp) {
  CHECK_CLOSE(dy[0], ry[0], 1e-12);
  CHECK_CLOSE(dy[1], ry[1], 1e-12);
  CHECK_CLOSE(dp->a, rp->a, 1e-12);
  CHECK_CLOSE(dp->h, rp->h, 1e-12);
}

int main(void) {
  static const long counts[] = {1, 5, 13};
  static const long budgets[] = {1, 2, 100};
  params p = {1.7, 0.05, 0.5};
  for (unsigned a = 0; a < 3; ++a) {
    long n = counts[a];
    double ry[2] = {0};
    params rp = {0};
    __enzyme_autodiff((void *)taped, enzyme_dup, y_init, ry, enzyme_dup, &p,
                      &rp, enzyme_const, n);
    double final_integral = integral;
    for (unsigned b = 0; b < 3; ++b)
      for (int schedule = 0; schedule <= 2; ++schedule) {
        double dy[2] = {0};
        params dp = {0};
        adcc_checkpoint_reset_stats();
        if (schedule < 2)
          __enzyme_autodiff((void *)checkpointed, enzyme_dup, y_init, dy,
                            enzyme_dup, &p, &dp, enzyme_const, n,
                            enzyme_const, schedule, enzyme_const, budgets[b]);
        else
          __enzyme_autodiff((void *)annotated, enzyme_dup, y_init, dy,
                            enzyme_dup, &p, &dp, enzyme_const, n,
                            enzyme_const, budgets[b]);
        compare(dy, &dp, ry, &rp);
        CHECK_TRUE(counter == n);
        CHECK_CLOSE(integral, final_integral, 1e-15);
        adcc_checkpoint_stats st;
        adcc_checkpoint_get_stats(&st);
        CHECK_TRUE(st.recorded == (size_t)n);
        /* Each snapshot: the state (3 doubles; for the annotated loop, its
           frame's variables) and the two globals. */
        CHECK_TRUE(st.snapshot_bytes_peak >=
                   st.snapshots_peak * (sizeof integral + sizeof counter));
      }
  }
  double ry[2] = {0}, dy[2] = {0};
  params rp = {0}, dp = {0};
  __enzyme_autodiff((void *)taped_while, enzyme_dup, y_init, ry, enzyme_dup,
                    &p, &rp);
  __enzyme_autodiff((void *)online, enzyme_dup, y_init, dy, enzyme_dup, &p,
                    &dp, enzyme_const, 2L);
  compare(dy, &dp, ry, &rp);
  CHECK_TRUE(counter == 10);
  /* The primal alone. */
  CHECK_CLOSE(checkpointed(y_init, &p, 9, ADCC_REVOLVE, 2),
              taped(y_init, &p, 9), 1e-15);
  return check_finish();
}
