/*===- release.c - Marks, release, clear and trim ------------------------===*
 *
 * A mark is the number of live bytes when it was taken, not a pointer: it
 * survives the chunks above it being cached, and a stale mark (one above
 * the top) can be recognised and reported instead of corrupting the tape.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

adcc_tape_mark adcc_tape_get_mark(const adcc_tape *t) {
  adcc_tape_mark mark = {adcc_rt_live_bytes(t)};
  return mark;
}

void adcc_tape_release(adcc_tape *t, adcc_tape_mark mark) {
  size_t live = adcc_rt_live_bytes(t);
  if (mark.position > live) {
    adcc_rt_report("tape release to a mark at %zu bytes, above the %zu live "
                   "bytes (was it released already?)",
                   mark.position, live);
    return;
  }
  if (mark.position == live)
    return;
  adcc_rt_fold_peak(t);
  /* Offsets grow along the chain, and the first chunk starts at 0. */
  adcc_chunk *c = t->chunk;
  while (c->offset > mark.position)
    c = c->prev;
  adcc_rt_enter_chunk(t, c, adcc_chunk_data(c) + (mark.position - c->offset));
}

void adcc_tape_clear(adcc_tape *t) {
  if (!t->chunk)
    return;
  adcc_rt_fold_peak(t);
  adcc_rt_enter_chunk(t, t->first, adcc_chunk_data(t->first));
}

static void free_chunk(adcc_tape *t, adcc_chunk *c) {
  t->reserved_bytes -= c->block_bytes;
  t->chunk_count--;
  adcc_rt_chunk_free(c);
}

void adcc_tape_trim(adcc_tape *t) {
  if (!t->chunk)
    return;
  adcc_rt_fold_peak(t);
  adcc_chunk *keep = adcc_rt_live_bytes(t) ? t->chunk : NULL;
  adcc_chunk *c = keep ? keep->next : t->first;
  while (c) {
    adcc_chunk *next = c->next;
    free_chunk(t, c);
    c = next;
  }
  if (keep)
    keep->next = NULL;
  else
    adcc_rt_enter_empty(t);
}
