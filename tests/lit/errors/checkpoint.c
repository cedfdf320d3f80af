// Checkpointed loops (docs/checkpointing.md): a step function that is not
// known at compile time or has the wrong shape, a constant snapshot budget
// below 1, and a fixed point's iteration that writes a global (only its
// state passes from one iteration to the next) are errors at the call in
// differentiated code. The same
// calls in code that is not differentiated are left alone.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

static void step(double *y, const double *p) { y[0] *= p[0]; }
static double bad_shape(double *y, const double *p) { return y[0] * p[0]; }
double counter;
static void counting(double *y, const double *p) {
  y[0] *= p[0];
  counter += y[0];
}

double unknown(double *y, const double *p, void *fn) {
  adcc_checkpointed_steps(fn, 10, y, sizeof *y, (void *)p, 0, ADCC_REVOLVE, 2);
  return y[0];
}
// CHECK: checkpoint.c:[[#@LINE-3]]:3: error: the step function of adcc_checkpointed_steps must name a function known at compile time

double shape(double *y, const double *p) {
  adcc_checkpointed_steps((void *)bad_shape, 10, y, sizeof *y, (void *)p, 0,
                          ADCC_REVOLVE, 2);
  return y[0];
}
// CHECK: checkpoint.c:[[#@LINE-4]]:3: error: the step function 'bad_shape' of adcc_checkpointed_steps must be a function void (T *state, P *params)

double budget(double *y, const double *p) {
  adcc_checkpointed_steps((void *)step, 10, y, sizeof *y, (void *)p, 0,
                          ADCC_INTERVAL, 0);
  return y[0];
}
// CHECK: checkpoint.c:[[#@LINE-4]]:3: error: the number of snapshots of adcc_checkpointed_steps must be at least 1 (got 0)

double global(double *y, const double *p) {
  adcc_fixed_point((void *)counting, y, 1, (void *)p, 0, 1e-12, 100);
  return y[0];
}
// CHECK: checkpoint.c:[[#@LINE-3]]:3: error: the iteration function 'counting' of adcc_fixed_point writes the global variable 'counter': a fixed point's iterations pass on only its state

static int never(const double *y, const double *p) { return 0; }
double online(double *y, const double *p) {
  adcc_checkpointed_while((void *)step, (void *)never, y, sizeof *y,
                          (void *)p, 0, -1);
  return y[0];
}
// CHECK: checkpoint.c:[[#@LINE-4]]:3: error: the number of snapshots of adcc_checkpointed_while must be at least 1 (got -1)

/* Not differentiated: no error. */
double primal(double *y, const double *p, void *fn) {
  adcc_checkpointed_steps(fn, 10, y, sizeof *y, (void *)p, 0, ADCC_REVOLVE, 0);
  return y[0];
}
// CHECK-NOT: error:

void gradients(double *y, double *dy, const double *p, double *dp, void *fn) {
  __enzyme_autodiff((void *)unknown, enzyme_dup, y, dy, enzyme_dup, p, dp,
                    enzyme_const, fn);
  __enzyme_autodiff((void *)shape, enzyme_dup, y, dy, enzyme_dup, p, dp);
  __enzyme_autodiff((void *)budget, enzyme_dup, y, dy, enzyme_dup, p, dp);
  __enzyme_autodiff((void *)global, enzyme_dup, y, dy, enzyme_dup, p, dp);
  __enzyme_autodiff((void *)online, enzyme_dup, y, dy, enzyme_dup, p, dp);
}
