// A checkpointed loop's gradient runs steps again: output in a step, and a
// function marked inactive (whose writes the snapshots do not hold), are
// warnings at the call, naming what runs again; the gradient is still made.
// RUN: %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>
#include <stdio.h>

extern int enzyme_dup;
extern double __enzyme_autodiff(void *, ...);

ADCC_INACTIVE void log_state(const double *y);

static void step(double *y, const double *p) {
  y[0] *= p[0];
  printf("y = %g\n", y[0]);
  log_state(y);
}

double run(double *y, const double *p) {
  adcc_checkpointed_steps((void *)step, 10, y, sizeof *y, (void *)p,
                          sizeof *p, ADCC_REVOLVE, 2);
  return y[0];
}
// CHECK-DAG: checkpoint-replay.c:[[#@LINE-4]]:3: warning: the steps of adcc_checkpointed_steps call 'printf' which the gradient runs again when it recomputes steps
// CHECK-DAG: checkpoint-replay.c:[[#@LINE-5]]:3: warning: the steps of adcc_checkpointed_steps call 'log_state', marked inactive, which the gradient runs again when it recomputes steps
// CHECK-NOT: warning:
// CHECK-NOT: error:

void gradient(double *y, double *dy, const double *p, double *dp) {
  __enzyme_autodiff((void *)run, enzyme_dup, y, dy, enzyme_dup, p, dp);
}
