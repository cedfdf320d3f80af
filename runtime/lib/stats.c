/*===- stats.c - Per-tape statistics -------------------------------------===*
 *
 * Per-tape numbers are plain fields (a tape has one user at a time); the
 * process-wide totals are atomics in memory.c.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

void adcc_tape_get_stats(const adcc_tape *t, adcc_tape_stats *s) {
  s->live_bytes = adcc_rt_live_bytes(t);
  s->peak_bytes = adcc_rt_peak_bytes(t);
  s->reserved_bytes = t->reserved_bytes;
  s->chunk_count = t->chunk_count;
  s->push_count = t->push_count;
  s->alloc_count = t->alloc_count;
}

void adcc_tape_reset_peak(adcc_tape *t) {
  t->peak_bytes = adcc_rt_live_bytes(t);
  t->peak_top = t->top;
}
