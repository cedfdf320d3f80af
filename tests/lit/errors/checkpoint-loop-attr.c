// The annotation form of checkpointed loops (docs/checkpointing.md): what
// the frontend refuses: a statement that is not a for or while loop, a
// snapshot budget below 1, an unknown schedule, a budget that is not an
// integer. (checkpoint-loop.c: what the outlining refuses.)
// RUN: %expect-exit 1 %adcc -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>

double not_a_loop(double x) {
  ADCC_CHECKPOINT(2) if (x > 0) x = 2 * x;
  return x;
}
// CHECK: checkpoint-loop-attr.c:[[#@LINE-3]]:3: error: ADCC_CHECKPOINT applies to a 'for' or 'while' loop

double budget(double x, int n) {
  ADCC_CHECKPOINT(0) for (int i = 0; i < n; ++i) x = x * x;
  return x;
}
// CHECK: checkpoint-loop-attr.c:[[#@LINE-3]]:19: error: the number of snapshots of ADCC_CHECKPOINT must be at least 1 (got 0)

double schedule(double x, int n) {
  ADCC_CHECKPOINT(2, 7) for (int i = 0; i < n; ++i) x = x * x;
  return x;
}
// CHECK: checkpoint-loop-attr.c:[[#@LINE-3]]:22: error: the schedule of ADCC_CHECKPOINT must be ADCC_REVOLVE or ADCC_INTERVAL

double not_integer(double x, int n) {
  ADCC_CHECKPOINT(2.5) for (int i = 0; i < n; ++i) x = x * x;
  return x;
}
// CHECK: checkpoint-loop-attr.c:[[#@LINE-3]]:19: error: the number of snapshots of ADCC_CHECKPOINT must be an integer

double undeclared(double x, int n) {
  ADCC_CHECKPOINT(budget_of_x) for (int i = 0; i < n; ++i) x = x * x;
  return x;
}
// CHECK: checkpoint-loop-attr.c:[[#@LINE-3]]:19: error: use of undeclared identifier 'budget_of_x'
