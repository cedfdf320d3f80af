/*===- tape.c - Tape creation and chunked push and pop -------------------===*
 *
 * A push that does not fit in the current chunk moves the tape to the next
 * chunk (a cached one if it fits, a new one otherwise) and never copies
 * earlier records. A pop that finds the current chunk empty moves the tape
 * back to the chunk below and leaves the emptied chunk cached above it.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What a tape without chunks points into: top == base == limit, so every
   fast path falls through to its slow path. */
static _Alignas(ADCC_TAPE_GRANULE) unsigned char no_chunk[ADCC_TAPE_GRANULE];

adcc_tape *adcc_tape_create(void) {
  /* A cache line of its own: tapes of different threads must not share the
     line their fast paths write on every push. */
  size_t size = adcc_round_up(sizeof(adcc_tape), ADCC_CACHE_LINE);
  adcc_tape *t = aligned_alloc(ADCC_CACHE_LINE, size);
  if (!t) {
    adcc_rt_report("out of memory creating a tape");
    return NULL;
  }
  memset(t, 0, sizeof(*t));
  adcc_rt_enter_empty(t);
  adcc_rt_count_tape(1);
  return t;
}

void adcc_tape_destroy(adcc_tape *t) {
  if (!t)
    return;
  adcc_chunk *c = t->first;
  while (c) {
    adcc_chunk *next = c->next;
    adcc_rt_chunk_free(c);
    c = next;
  }
  adcc_rt_count_tape(-1);
  free(t);
}

void adcc_rt_enter_chunk(adcc_tape *t, adcc_chunk *c, unsigned char *top) {
  t->chunk = c;
  t->base = adcc_chunk_data(c);
  t->limit = c->limit;
  t->top = top;
  t->peak_top = top;
}

void adcc_rt_enter_empty(adcc_tape *t) {
  t->chunk = NULL;
  t->first = NULL;
  t->base = t->limit = t->top = t->peak_top = no_chunk;
}

/*--- Moving up: pushes ------------------------------------------------------*/

/* Links `c` directly after the current chunk (or as the only chunk). */
static void link_above(adcc_tape *t, adcc_chunk *c) {
  adcc_chunk *cur = t->chunk;
  c->prev = cur;
  c->next = cur ? cur->next : NULL;
  if (c->next)
    c->next->prev = c;
  if (cur)
    cur->next = c;
  else
    t->first = c;
}

static void unlink_chunk(adcc_tape *t, adcc_chunk *c) {
  if (c->prev)
    c->prev->next = c->next;
  else
    t->first = c->next;
  if (c->next)
    c->next->prev = c->prev;
}

/* The first cached chunk with room for `required` bytes. Repeated calls
   that push the same records find their chunks in the same order. */
static adcc_chunk *find_cached(const adcc_tape *t, size_t required) {
  for (adcc_chunk *c = t->chunk ? t->chunk->next : NULL; c; c = c->next)
    if ((size_t)(c->limit - adcc_chunk_data(c)) >= required)
      return c;
  return NULL;
}

/* The block size for the tape's next new chunk: about the size of what the
   tape already holds, so that reserved memory doubles per new chunk. */
static size_t preferred_block(const adcc_tape *t) {
  size_t block = ADCC_CHUNK_MIN_BLOCK;
  while (block < t->reserved_bytes && block < ADCC_CHUNK_MAX_BLOCK)
    block *= 2;
  return block;
}

static adcc_chunk *new_chunk(adcc_tape *t, size_t required, size_t bytes) {
  adcc_chunk *c = adcc_rt_chunk_alloc(required, preferred_block(t), bytes);
  if (!c)
    return NULL;
  t->reserved_bytes += c->block_bytes;
  /* (Records, pointers' shadows among them, are the request's memory: not
     given final pointer shadows back at its end, pointer_marks.c.) */
  adcc_rt_marks_own(c, c->block_bytes);
  t->chunk_count++;
  t->alloc_count++;
  return c;
}

/* Moves `t` to an empty chunk with at least `required` data bytes. */
static int move_up(adcc_tape *t, size_t required, size_t bytes) {
  adcc_chunk *next = find_cached(t, required);
  if (next)
    unlink_chunk(t, next);
  else if (!(next = new_chunk(t, required, bytes)))
    return 0;

  adcc_rt_fold_peak(t);
  adcc_chunk *cur = t->chunk;
  next->offset = cur ? cur->offset + (size_t)(t->top - t->base) : 0;
  if (cur)
    cur->used_end = t->top;
  link_above(t, next);
  adcc_rt_enter_chunk(t, next, adcc_chunk_data(next));
  return 1;
}

void *adcc_rt_push_slow(adcc_tape *t, size_t need, size_t bytes) {
  if (!move_up(t, need, bytes))
    return NULL;
  unsigned char *p = t->top;
  t->top = p + need;
  return p;
}

/* The padding (header included) in front of an over-aligned record of
   `need` bytes placed above `top`; 0 if it does not fit below `limit`. */
static size_t overaligned_pad(const unsigned char *top,
                              const unsigned char *limit, size_t need,
                              size_t align) {
  uintptr_t at = (uintptr_t)top;
  uintptr_t start =
      (at + ADCC_TAPE_GRANULE + align - 1) & ~(uintptr_t)(align - 1);
  uintptr_t end = (uintptr_t)limit;
  if (start > end || end - start < need)
    return 0;
  return (size_t)(start - at);
}

/* A record aligned beyond the granule: the padding in front of it varies,
   so its size is stored in the 8 bytes just below the record, where the
   matching pop finds it. */
static void *push_overaligned(adcc_tape *t, size_t need, size_t align,
                              size_t bytes) {
  size_t pad = overaligned_pad(t->top, t->limit, need, align);
  if (!pad) {
    if (!move_up(t, need + align, bytes))
      return NULL;
    pad = overaligned_pad(t->top, t->limit, need, align);
  }
  uint64_t header = pad;
  memcpy(t->top + (pad - ADCC_TAPE_GRANULE), &header, sizeof(header));
  unsigned char *p = t->top + pad;
  t->top = p + need;
  return p;
}

/* Checks an alignment and size; returns the record's slot size, or 0 after
   reporting (a zero-byte record has no slot but is valid: `*ok` says). */
static size_t slot_size(size_t bytes, size_t align, int *ok) {
  *ok = 0;
  if (align & (align - 1)) {
    adcc_rt_report("tape record alignment %zu is not a power of two", align);
    return 0;
  }
  if (align > ADCC_TAPE_MAX_ALIGN) {
    adcc_rt_report("tape record alignment %zu exceeds the maximum of %d", align,
                   ADCC_TAPE_MAX_ALIGN);
    return 0;
  }
  if (bytes > SIZE_MAX / 4) {
    adcc_rt_report("tape record of %zu bytes is too large", bytes);
    return 0;
  }
  *ok = 1;
  return adcc_round_up(bytes, ADCC_TAPE_GRANULE);
}

void *adcc_tape_push(adcc_tape *t, size_t bytes, size_t align) {
  int ok;
  size_t need = slot_size(bytes, align, &ok);
  if (!ok)
    return NULL;
  unsigned char *p;
  if (align > ADCC_TAPE_GRANULE) {
    p = push_overaligned(t, need, align, bytes);
  } else if ((size_t)(t->limit - t->top) >= need) {
    p = t->top;
    t->top = p + need;
  } else {
    p = adcc_rt_push_slow(t, need, bytes);
  }
  if (p)
    t->push_count++;
  return p;
}

/*--- Moving down: pops ------------------------------------------------------*/

/* The newest record and the tape position below it. */
typedef struct located {
  adcc_chunk *chunk;     /* chunk holding the record (NULL: empty tape) */
  unsigned char *top;    /* that chunk's top, above the record */
  unsigned char *record; /* the record */
  unsigned char *below;  /* the top once the record is popped */
} located;

static void report_bad_pop(const adcc_tape *t, size_t bytes) {
  size_t live = adcc_rt_live_bytes(t);
  if (live == 0)
    adcc_rt_report("tape underflow: pop of %zu bytes from an empty tape "
                   "(the reverse sweep pops more than the forward sweep "
                   "pushed)",
                   bytes);
  else
    adcc_rt_report("tape pop of %zu bytes does not match the records on "
                   "the tape (%zu bytes live); pushes and pops must mirror "
                   "each other",
                   bytes, live);
}

/* Finds the newest record, of slot size `need`, without changing `t`. Empty
   chunks between it and the top are skipped. */
static int locate(const adcc_tape *t, size_t need, size_t align, size_t bytes,
                  located *at) {
  adcc_chunk *c = t->chunk;
  unsigned char *base = t->base;
  unsigned char *top = t->top;
  while (top == base && c && c->prev) {
    c = c->prev;
    base = adcc_chunk_data(c);
    top = c->used_end;
  }
  size_t header = align > ADCC_TAPE_GRANULE ? ADCC_TAPE_GRANULE : 0;
  size_t used = (size_t)(top - base);
  if (used < need + header) {
    report_bad_pop(t, bytes);
    return 0;
  }
  at->chunk = c;
  at->top = top;
  at->record = top - need;
  at->below = at->record;
  if (!header)
    return 1;

  uint64_t pad;
  memcpy(&pad, at->record - ADCC_TAPE_GRANULE, sizeof(pad));
  if (pad < ADCC_TAPE_GRANULE || pad % ADCC_TAPE_GRANULE || pad > align ||
      pad > used - need || ((uintptr_t)at->record & (align - 1))) {
    report_bad_pop(t, bytes);
    return 0;
  }
  at->below = at->record - pad;
  return 1;
}

/* Pops the record found by locate(). */
static void *take(adcc_tape *t, const located *at) {
  if (at->chunk != t->chunk) {
    adcc_rt_fold_peak(t);
    adcc_rt_enter_chunk(t, at->chunk, at->top);
  }
  if (t->top > t->peak_top)
    t->peak_top = t->top;
  t->top = at->below;
  return at->record;
}

void *adcc_rt_pop_slow(adcc_tape *t, size_t need, size_t bytes) {
  located at;
  if (!locate(t, need, ADCC_TAPE_GRANULE, bytes, &at))
    return NULL;
  return take(t, &at);
}

void *adcc_tape_pop(adcc_tape *t, size_t bytes, size_t align) {
  int ok;
  size_t need = slot_size(bytes, align, &ok);
  if (!ok)
    return NULL;
  unsigned char *p = t->top;
  if (align <= ADCC_TAPE_GRANULE && (size_t)(p - t->base) >= need) {
    if (p > t->peak_top)
      t->peak_top = p;
    t->top = p - need;
    return t->top;
  }
  located at;
  if (!locate(t, need, align, bytes, &at))
    return NULL;
  return take(t, &at);
}

void *adcc_tape_top(const adcc_tape *t, size_t bytes, size_t align) {
  int ok;
  size_t need = slot_size(bytes, align, &ok);
  located at;
  if (!ok || !locate(t, need, align, bytes, &at))
    return NULL;
  return at.record;
}
