/*===- memory.c - Chunk allocation under the process-wide bound ----------===*
 *
 * All tapes of a process share one memory bound. It applies to reserved
 * memory (whole chunks, cached ones included), not to live records: that is
 * what the process actually holds, and it can be checked exactly and cheaply
 * because it only changes when a chunk is allocated or freed, never on the
 * fast paths.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdatomic.h>
#include <stdlib.h>

static atomic_size_t limit_bytes;
static atomic_size_t reserved_bytes;
static atomic_size_t peak_reserved_bytes;
static atomic_size_t chunk_count;
static atomic_size_t alloc_count;
static atomic_size_t tape_count;

void adcc_rt_store_limit(size_t bytes) { atomic_store(&limit_bytes, bytes); }

void adcc_tape_set_limit(size_t bytes) {
  adcc_rt_init_limit();
  adcc_rt_store_limit(bytes);
}

size_t adcc_tape_get_limit(void) {
  adcc_rt_init_limit();
  return atomic_load(&limit_bytes);
}

static void raise_peak(size_t held) {
  size_t peak = atomic_load(&peak_reserved_bytes);
  while (held > peak &&
         !atomic_compare_exchange_weak(&peak_reserved_bytes, &peak, held))
    ;
}

/* Adds a block of `preferred` bytes, or as few as `minimum` when the bound
   leaves less room, to the reserved total. Returns the size granted, or 0
   after reporting that the bound is exceeded. */
static size_t reserve(size_t minimum, size_t preferred, size_t push_bytes) {
  adcc_rt_init_limit();
  size_t held = atomic_load(&reserved_bytes);
  for (;;) {
    size_t limit = atomic_load(&limit_bytes);
    size_t block = preferred;
    if (limit) {
      size_t room = held < limit ? limit - held : 0;
      if (room < minimum) {
        adcc_rt_report("tape memory limit of %zu bytes exceeded (tapes hold "
                       "%zu bytes, push of %zu bytes); raise ADCC_TAPE_LIMIT "
                       "or call adcc_tape_set_limit()",
                       limit, held, push_bytes);
        return 0;
      }
      if (room < block)
        block = room & ~(size_t)(ADCC_CHUNK_HEADER - 1);
    }
    if (atomic_compare_exchange_weak(&reserved_bytes, &held, held + block)) {
      raise_peak(held + block);
      return block;
    }
  }
}

static void unreserve(size_t block) {
  atomic_fetch_sub(&reserved_bytes, block);
}

adcc_chunk *adcc_rt_chunk_alloc(size_t data_bytes, size_t block_bytes,
                                size_t push_bytes) {
  size_t minimum =
      adcc_round_up(ADCC_CHUNK_HEADER + data_bytes, ADCC_CHUNK_HEADER);
  /* A record too large for an ordinary chunk gets a chunk of its own size,
     rounded to whole pages. */
  if (block_bytes < minimum)
    block_bytes = adcc_round_up(minimum, 4096);
  size_t block = reserve(minimum, block_bytes, push_bytes);
  if (!block)
    return NULL;

  adcc_chunk *c = aligned_alloc(ADCC_CHUNK_HEADER, block);
  if (!c) {
    unreserve(block);
    adcc_rt_report("out of memory allocating a tape chunk of %zu bytes "
                   "(push of %zu bytes)",
                   block, push_bytes);
    return NULL;
  }
  c->prev = c->next = NULL;
  c->limit = (unsigned char *)c + block;
  c->used_end = adcc_chunk_data(c);
  c->offset = 0;
  c->block_bytes = block;
  atomic_fetch_add(&chunk_count, 1);
  atomic_fetch_add(&alloc_count, 1);
  return c;
}

void adcc_rt_chunk_free(adcc_chunk *c) {
  unreserve(c->block_bytes);
  atomic_fetch_sub(&chunk_count, 1);
  free(c);
}

void adcc_rt_count_tape(int delta) {
  if (delta > 0)
    atomic_fetch_add(&tape_count, 1);
  else
    atomic_fetch_sub(&tape_count, 1);
}

void adcc_runtime_get_stats(adcc_runtime_stats *s) {
  s->tape_count = atomic_load(&tape_count);
  s->reserved_bytes = atomic_load(&reserved_bytes);
  s->peak_reserved_bytes = atomic_load(&peak_reserved_bytes);
  s->chunk_count = atomic_load(&chunk_count);
  s->alloc_count = atomic_load(&alloc_count);
}
