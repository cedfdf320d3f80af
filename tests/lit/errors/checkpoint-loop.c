// The annotation form of checkpointed loops (docs/checkpointing.md): what
// the outlining refuses, at the annotation: an exit other than the
// condition, a write through a pointer whose extent is unknown (directly
// or in a callee; a heap block whose pointer the loop changes, or
// allocated where the loop does not follow), a local variable whose address
// is kept in memory, a schedule that needs a count the loop does not have,
// a budget that the loop changes. (checkpoint-loop-attr.c: what the frontend refuses.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>
#include <stdlib.h>

double early_exit(double x, int n) {
  ADCC_CHECKPOINT(2) for (int i = 0; i < n; ++i) {
    x = x * x;
    if (x > 10)
      break;
  }
  return x;
}
// CHECK: checkpoint-loop.c:[[#@LINE-7]]:3: error: the loop marked ADCC_CHECKPOINT leaves other than by its condition ('break', 'return' or 'goto' at line [[#@LINE-5]]); checkpointed loops run whole iterations

double unbounded(double *u, int m, int n) {
  ADCC_CHECKPOINT(2) for (int t = 0; t < n; ++t) for (int i = 1; i < m; ++i)
      u[i] += 0.5 * u[i - 1];
  return u[m - 1];
}
// CHECK: checkpoint-loop.c:[[#@LINE-4]]:3: error: the loop marked ADCC_CHECKPOINT writes memory through a pointer that is not a local variable or array of 'unbounded' nor a heap block a local pointer variable holds, whose extent is unknown (line [[#@LINE-3]]); a snapshot holds the local variables and arrays the loop writes, and the heap blocks their pointers hold (for other memory, call adcc_checkpointed_steps with the state's size)

static void smooth(double *v, int m) {
  for (int i = 1; i < m; ++i)
    v[i] += 0.5 * v[i - 1];
}
double unbounded_callee(double *u, int m, int n) {
  ADCC_CHECKPOINT(2) for (int t = 0; t < n; ++t) smooth(u, m);
  return u[m - 1];
}
// CHECK: checkpoint-loop.c:[[#@LINE-3]]:3: error: the loop marked ADCC_CHECKPOINT writes memory through a pointer that is not a local variable or array of 'unbounded_callee' nor a heap block a local pointer variable holds, whose extent is unknown (line [[#@LINE-3]])

double kept_address(double x, int n) {
  double y[2] = {x, x};
  double *p = y;
  ADCC_CHECKPOINT(2) for (int t = 0; t < n; ++t) y[t % 2] += p[0];
  return y[1];
}
// CHECK: checkpoint-loop.c:[[#@LINE-3]]:3: error: the loop marked ADCC_CHECKPOINT uses a local variable whose address is kept in memory (line [[#@LINE-4]]); the snapshots hold copies of it

double uncounted(double x) {
  ADCC_CHECKPOINT(2, ADCC_REVOLVE) while (x < 100) x = 2 * x + 1;
  return x;
}
// CHECK: checkpoint-loop.c:[[#@LINE-3]]:3: error: the loop marked ADCC_CHECKPOINT asks for the revolve schedule, which needs the number of iterations before the loop runs

double moving_budget(double x, int n) {
  int s = 2;
  ADCC_CHECKPOINT(s) for (int t = 0; t < n; ++t) {
    x = x * 0.5 + 1;
    ++s;
  }
  return x;
}
// CHECK: checkpoint-loop.c:[[#@LINE-6]]:3: error: the loop marked ADCC_CHECKPOINT has a number of snapshots that the loop changes

double moved_block(int m, int n) {
  double *y = malloc(m * sizeof *y), r;
  y[0] = 1;
  ADCC_CHECKPOINT(2) for (int t = 0; t < n; ++t) {
    y[0] *= 0.5;
    y = realloc(y, (m + t) * sizeof *y);
  }
  r = y[0];
  free(y);
  return r;
}
// CHECK: checkpoint-loop.c:[[#@LINE-8]]:3: error: the loop marked ADCC_CHECKPOINT writes memory through a pointer that is not a local variable or array of 'moved_block' nor a heap block a local pointer variable holds, whose extent is unknown (line [[#@LINE-7]])

double late_block(int m, int n, int c) {
  double *y;
  if (c)
    y = malloc(m * sizeof *y);
  ADCC_CHECKPOINT(2) for (int t = 0; t < n; ++t) y[0] += 0.5;
  return y[0];
}
// CHECK: checkpoint-loop.c:[[#@LINE-3]]:3: error: the loop marked ADCC_CHECKPOINT writes a heap block whose allocation (line [[#@LINE-4]]) does not come before the loop
