/* The tape runtime as linked by adcc without flags: a long LIFO of mixed
 * records, reuse of chunks across "calls", the memory bound. */
#include <adcc.h>
#include <string.h>

#include "check.h"

static char last_error[512];
static void record_error(const char *message) {
  strncpy(last_error, message, sizeof last_error - 1);
}

/* One "call": the forward sweep pushes, the reverse sweep pops in reverse. */
static double sweep(adcc_tape *tape, int n) {
  for (int i = 0; i < n; ++i) {
    adcc_tape_push_f64(tape, 0.5 * i);
    if (i % 3 == 0)
      adcc_tape_push_i32(tape, i);
  }
  double sum = 0;
  for (int i = n - 1; i >= 0; --i) {
    if (i % 3 == 0 && adcc_tape_pop_i32(tape) != i)
      return -1;
    sum += adcc_tape_pop_f64(tape);
  }
  return sum;
}

int main(void) {
  adcc_tape *tape = adcc_tape_thread();
  const int n = 1000000;
  CHECK_CLOSE(sweep(tape, n), 0.5 * (double)n * (n - 1) / 2, 0);

  adcc_tape_stats first, later;
  adcc_tape_get_stats(tape, &first);
  for (int call = 0; call < 5; ++call)
    CHECK_CLOSE(sweep(tape, n), 0.5 * (double)n * (n - 1) / 2, 0);
  adcc_tape_get_stats(tape, &later);
  CHECK_TRUE(later.live_bytes == 0);
  CHECK_TRUE(later.alloc_count == first.alloc_count); /* chunks reused */
  CHECK_TRUE(later.peak_bytes >= (size_t)n * sizeof(double));

  /* The bound: a push beyond it fails through the handler, clearly. */
  adcc_set_error_handler(record_error);
  adcc_tape *small = adcc_tape_create();
  adcc_tape_trim(tape);
  adcc_runtime_stats totals;
  adcc_runtime_get_stats(&totals);
  adcc_tape_set_limit(totals.reserved_bytes + (1u << 20));
  CHECK_TRUE(adcc_tape_push(small, 4u << 20, 8) == NULL);
  CHECK_TRUE(strstr(last_error, "tape memory limit") != NULL);
  CHECK_TRUE(strstr(last_error, "ADCC_TAPE_LIMIT") != NULL);
  adcc_tape_set_limit(0);
  CHECK_TRUE(adcc_tape_push(small, 4u << 20, 8) != NULL);
  adcc_tape_destroy(small);
  return check_finish();
}
