/*===- tape_internal.h - Private layout of tapes and chunks -------*- C -*-===*
 *
 * Shared by the runtime's source files only; nothing here is ABI.
 *
 * A tape is a doubly linked list of chunks. The chunk holding the newest
 * record is the current chunk; the chunks after it are a cache of empty
 * chunks kept for the next push that crosses a chunk boundary, so that a
 * tape filled again after a clear or a pop reuses memory that is already
 * mapped. The chunks before it are full (up to their `used_end`).
 *
 * The hot part of the tape (top, limit, base) is a bump pointer inside the
 * current chunk. Every record occupies a multiple of ADCC_TAPE_GRANULE
 * bytes, so `top` is always granule-aligned and a typed push or pop is one
 * compare and one add.
 *
 *===----------------------------------------------------------------------===*/

#ifndef ADCC_RUNTIME_TAPE_INTERNAL_H
#define ADCC_RUNTIME_TAPE_INTERNAL_H

#include "adcc_runtime.h"

#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define ADCC_LIKELY(x) __builtin_expect(!!(x), 1)
#define ADCC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ADCC_NOINLINE __attribute__((noinline))
#define ADCC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define ADCC_LIKELY(x) (x)
#define ADCC_UNLIKELY(x) (x)
#define ADCC_NOINLINE
#define ADCC_PRINTF(fmt, args)
#endif

#define ADCC_CACHE_LINE 64
/* Chunk data starts this many bytes after the chunk header's address, so
   that it is cache-line aligned. */
#define ADCC_CHUNK_HEADER ADCC_CACHE_LINE
/* Smallest and largest block a chunk is allocated with, unless a single
   record needs more. Blocks grow geometrically between the two so that a
   large tape has few chunks and a small one wastes little. */
#define ADCC_CHUNK_MIN_BLOCK ((size_t)64 << 10)
#define ADCC_CHUNK_MAX_BLOCK ((size_t)8 << 20)

typedef struct adcc_chunk {
  struct adcc_chunk *prev;
  struct adcc_chunk *next;
  unsigned char *limit;    /* one past the last data byte */
  unsigned char *used_end; /* the tape's top when it moved above the chunk */
  size_t offset;           /* live bytes below this chunk, when entered */
  size_t block_bytes;      /* size of the allocation, header included */
} adcc_chunk;

_Static_assert(sizeof(adcc_chunk) <= ADCC_CHUNK_HEADER,
               "the chunk header fits in front of the data");

struct adcc_tape {
  /* Hot fields first: the fast paths touch only these. */
  unsigned char *top;      /* first free byte of the current chunk */
  unsigned char *limit;    /* end of the current chunk */
  unsigned char *base;     /* first data byte of the current chunk */
  unsigned char *peak_top; /* highest top seen by a pop in this chunk */
  size_t push_count;

  adcc_chunk *chunk; /* current chunk, NULL while the tape holds none */
  adcc_chunk *first;
  size_t peak_bytes; /* peak folded in from chunks left and releases */
  size_t reserved_bytes;
  size_t chunk_count;
  size_t alloc_count;
};

static inline unsigned char *adcc_chunk_data(const adcc_chunk *c) {
  return (unsigned char *)c + ADCC_CHUNK_HEADER;
}

static inline size_t adcc_round_up(size_t n, size_t align) {
  return (n + align - 1) & ~(align - 1);
}

/* Bytes of live records on `t`. */
static inline size_t adcc_rt_live_bytes(const adcc_tape *t) {
  return t->chunk ? t->chunk->offset + (size_t)(t->top - t->base) : 0;
}

/* The peak of `t`, including the part not yet folded into peak_bytes. */
static inline size_t adcc_rt_peak_bytes(const adcc_tape *t) {
  if (!t->chunk)
    return t->peak_bytes;
  unsigned char *high = t->top > t->peak_top ? t->top : t->peak_top;
  size_t here = t->chunk->offset + (size_t)(high - t->base);
  return here > t->peak_bytes ? here : t->peak_bytes;
}

/* Records the current chunk's high-water mark in peak_bytes. Must run
   before the tape leaves its chunk or its top drops outside a pop. */
static inline void adcc_rt_fold_peak(adcc_tape *t) {
  t->peak_bytes = adcc_rt_peak_bytes(t);
}

/* Makes `c` the current chunk with its top at `top`. */
void adcc_rt_enter_chunk(adcc_tape *t, adcc_chunk *c, unsigned char *top);

/* Makes `t` a tape without chunks. */
void adcc_rt_enter_empty(adcc_tape *t);

/* Slow paths of a push or pop of `need` bytes (a multiple of the granule)
   at granule alignment; `bytes` is the caller's size, for messages. Both
   return NULL, leaving the tape unchanged, after reporting a failure. */
void *adcc_rt_push_slow(adcc_tape *t, size_t need, size_t bytes);
void *adcc_rt_pop_slow(adcc_tape *t, size_t need, size_t bytes);

/* Allocates a chunk with room for at least `data_bytes`, preferably
   `block_bytes` in all, within the process-wide memory bound. Reports
   failures (naming a push of `push_bytes`) and returns NULL. */
adcc_chunk *adcc_rt_chunk_alloc(size_t data_bytes, size_t block_bytes,
                                size_t push_bytes);
void adcc_rt_chunk_free(adcc_chunk *c);

/* Reads ADCC_TAPE_LIMIT into the bound, once, before the bound is first
   read or set. */
void adcc_rt_init_limit(void);
/* Sets the bound without the one-time read (memory.c). */
void adcc_rt_store_limit(size_t bytes);

/* Process-wide tape counting, for adcc_runtime_get_stats. */
void adcc_rt_count_tape(int delta);

/* Formats "adcc runtime: error: <message>" and passes it to the installed
   error handler. */
void adcc_rt_report(const char *format, ...) ADCC_PRINTF(1, 2);

#endif /* ADCC_RUNTIME_TAPE_INTERNAL_H */
