/*===- pointer_marks.c - Shadow bytes that hold a pointer's shadow --------===*
 *
 * Reverse mode keeps a pointer's shadow and a number's adjoint in the same
 * shadow bytes: what the primal bytes hold says which. Bytes that first
 * hold a pointer and then a float (a pool allocator's free list, then an
 * object handed out from it; a byte buffer reused) keep the pointer's
 * shadow until the float's store, whose reverse would read those bits as
 * the float's adjoint. Before the augmented sweep stores a pointer's
 * shadow, it marks those shadow bytes and keeps what they held; a store of
 * a float with a derivative over marked bytes puts back what they held
 * before the first pointer's shadow came (zero in memory the derivative
 * allocated; the seed a caller put in the shadow of its output memory,
 * which the function used for a pointer first). Unmarked bytes are left
 * alone.
 *
 * Marks are kept per thread, in an open-addressing table of 8-byte
 * granules of shadow addresses, each with a mask of its bytes that hold a
 * pointer's shadow and their bytes from before. adcc_shadow_marks_begin,
 * at the start of each request's augmented sweep, makes every thread's
 * marks stale (a counter of generations): shadow memory freed since may be
 * a caller's now.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uintptr_t granule; /* 0: empty */
  uint8_t mask;      /* the bytes of the granule that hold a pointer's shadow */
  unsigned char before[8]; /* what those bytes held before */
} mark;

typedef struct {
  mark *slots;
  size_t capacity; /* a power of two, or 0 */
  size_t used;     /* slots not empty (including cleared ones) */
  unsigned long generation;
} table;

__thread uint64_t adcc_shadow_marks_live;
static __thread table marks;
static atomic_ulong generation = 1;

enum { granule_bytes = 8, min_capacity = 64 };

static size_t slot_of(uintptr_t granule, size_t capacity) {
  uint64_t h = (uint64_t)granule * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 17) & (capacity - 1);
}

static void forget_all(table *t) {
  if (t->capacity)
    memset(t->slots, 0, t->capacity * sizeof(mark));
  t->used = 0;
  adcc_shadow_marks_live = 0;
}

/* The thread's table, emptied when a newer augmented sweep began. */
static table *current(void) {
  table *t = &marks;
  unsigned long g = atomic_load_explicit(&generation, memory_order_acquire);
  if (t->generation != g) {
    forget_all(t);
    t->generation = g;
  }
  return t;
}

static mark *find(const table *t, uintptr_t granule) {
  if (!t->capacity)
    return NULL;
  for (size_t i = slot_of(granule, t->capacity);; i = (i + 1) & (t->capacity - 1)) {
    mark *m = &t->slots[i];
    if (m->granule == granule)
      return m;
    if (!m->granule)
      return NULL;
  }
}

static void insert(table *t, uintptr_t granule, uint8_t mask,
                   const unsigned char *before);

static void grow(table *t) {
  mark *old = t->slots;
  size_t old_capacity = t->capacity;
  size_t capacity = old_capacity ? old_capacity * 2 : min_capacity;
  t->slots = calloc(capacity, sizeof(mark));
  if (!t->slots)
    adcc_rt_report("out of memory marking the shadows of pointers");
  t->capacity = capacity;
  t->used = 0;
  for (size_t i = 0; i < old_capacity; ++i)
    if (old[i].granule && old[i].mask)
      insert(t, old[i].granule, old[i].mask, old[i].before);
  free(old);
}

/* Marks the bytes `mask` of the granule, whose bytes before the first
   mark are `before` (a pointer's shadow over a pointer's shadow keeps the
   bytes from before the first). */
static void insert(table *t, uintptr_t granule, uint8_t mask,
                   const unsigned char *before) {
  mark *m = find(t, granule);
  if (m) {
    for (unsigned b = 0; b < granule_bytes; ++b)
      if ((mask & ~m->mask) & (1u << b))
        m->before[b] = before[b];
    m->mask |= mask;
    return;
  }
  /* (At most half full, cleared slots counted.) */
  if (2 * (t->used + 1) > t->capacity)
    grow(t);
  for (size_t i = slot_of(granule, t->capacity);; i = (i + 1) & (t->capacity - 1))
    if (!t->slots[i].granule) {
      t->slots[i].granule = granule;
      t->slots[i].mask = mask;
      memcpy(t->slots[i].before, before, granule_bytes);
      ++t->used;
      return;
    }
}

/* The mask of the bytes [first, end) within the granule at g. */
static uint8_t bytes_in(uintptr_t g, uintptr_t first, uintptr_t end) {
  uintptr_t lo = first > g ? first - g : 0;
  uintptr_t hi = end < g + granule_bytes ? end - g : granule_bytes;
  return (uint8_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
}

/* The whole pointer's shadow goes, the float's bytes and the others: what
   the bytes held before it comes back. */
static void restore(mark *m) {
  for (unsigned b = 0; b < granule_bytes; ++b)
    if (m->mask & (1u << b))
      ((unsigned char *)m->granule)[b] = m->before[b];
  m->mask = 0;
}

void adcc_shadow_marks_begin(void) {
  atomic_fetch_add_explicit(&generation, 1, memory_order_acq_rel);
  forget_all(&marks);
  marks.generation =
      atomic_load_explicit(&generation, memory_order_acquire);
}

void adcc_shadow_mark_pointer(void *shadow, uint64_t bytes) {
  if (!shadow || !bytes)
    return;
  table *t = current();
  uintptr_t first = (uintptr_t)shadow, end = first + bytes;
  for (uintptr_t g = first & ~(uintptr_t)(granule_bytes - 1); g < end;
       g += granule_bytes) {
    uint8_t mask = bytes_in(g, first, end);
    unsigned char before[granule_bytes] = {0};
    for (unsigned b = 0; b < granule_bytes; ++b)
      if (mask & (1u << b))
        before[b] = ((const unsigned char *)g)[b];
    insert(t, g, mask, before);
  }
  adcc_shadow_marks_live = 1;
}

void adcc_shadow_clear_pointers(void *shadow, uint64_t bytes) {
  /* (Marks of an older sweep are none; the flag stays as it is: adcore
     tells LLVM that this function does not write it, so that a loop of
     stores tests it once.) */
  table *t = &marks;
  if (!shadow || !bytes || !t->used ||
      t->generation != atomic_load_explicit(&generation, memory_order_acquire))
    return;
  uintptr_t first = (uintptr_t)shadow, end = first + bytes;
  uintptr_t g = first & ~(uintptr_t)(granule_bytes - 1);
  /* (A long range against a few marks: the marks are looked at.) */
  if ((end - g) / granule_bytes > t->capacity) {
    for (size_t i = 0; i < t->capacity; ++i) {
      mark *m = &t->slots[i];
      if (m->mask && m->granule + granule_bytes > first && m->granule < end)
        restore(m);
    }
    return;
  }
  for (; g < end; g += granule_bytes) {
    mark *m = find(t, g);
    if (!m || !m->mask)
      continue;
    restore(m);
  }
}
