// A loop marked ADCC_CHECKPOINT runs its iterations again in the gradient,
// as the calls do (checkpoint-replay.c): output, random numbers and a
// function marked inactive that writes program memory are warnings at the
// annotation, naming the function; the gradient is still made.
// RUN: %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);

ADCC_INACTIVE void count_step(long *counter);

static double simulate(const double *x, int n) {
  double y[2] = {x[0], x[1]};
  long steps = 0;
  ADCC_CHECKPOINT(3) for (int t = 0; t < n; ++t) {
    y[0] = y[0] * y[1] + 1e-3 * (rand() % 2);
    y[1] = 0.5 * y[1] + y[0];
    fprintf(stderr, "%g\n", y[0]);
    count_step(&steps);
  }
  return y[0] + y[1];
}
// CHECK-DAG: checkpoint-loop-replay.c:[[#@LINE-8]]:3: warning: the steps of adcc_checkpointed_steps call 'rand' which the gradient runs again when it recomputes steps
// CHECK-DAG: checkpoint-loop-replay.c:[[#@LINE-9]]:3: warning: the steps of adcc_checkpointed_steps call 'fprintf' which the gradient runs again when it recomputes steps
// CHECK-DAG: checkpoint-loop-replay.c:[[#@LINE-10]]:3: warning: the steps of adcc_checkpointed_steps call 'count_step', marked inactive, which the gradient runs again when it recomputes steps
// CHECK-NOT: error:

void gradient(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)simulate, enzyme_dup, x, dx, enzyme_const, n);
}
