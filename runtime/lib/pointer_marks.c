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

enum { latest = 1, on_stack = 2 };

typedef struct {
  uintptr_t granule; /* 0: empty */
  unsigned char before[8]; /* what the marked bytes held before */
  uint32_t last;     /* the granule's latest record + 1; 0: none */
  uint8_t mask;      /* the bytes of the granule that hold a pointer's shadow */
  uint8_t flags;     /* on_stack */
} mark;

/* A pointer's shadow stored: what its bytes that held no pointer's shadow
   (`starts`) held before. */
typedef struct {
  uintptr_t granule; /* 0: undone */
  unsigned char before[8];
  uint32_t prev; /* the granule's record before this one + 1; 0: none */
  uint8_t starts;
  uint8_t flags;      /* latest (of its granule), on_stack */
  uint8_t final_mask; /* of the latest: the bytes holding pointer shadows */
} record;

/* The pointer shadows of a granule when the augmented sweep ended. */
typedef struct {
  uintptr_t granule;
  unsigned char bytes[8];
  uint8_t mask;
  uint8_t on_stack;
} final;

typedef struct {
  uintptr_t first, end;
} block;

/* The request the thread began: its records and the shadow blocks it
   allocated. */
typedef struct {
  int active;
  uintptr_t stack; /* the caller's stack pointer: frames below are its */
  record *log;
  size_t count, capacity;
  block *blocks;
  size_t block_count, block_capacity;
  final *finals;
  size_t final_count, final_capacity;
} request_state;

typedef struct {
  mark *slots;
  size_t capacity; /* a power of two, or 0 */
  size_t used;     /* slots not empty (including cleared ones) */
  unsigned long generation;
} table;

__thread uint64_t adcc_shadow_marks_live;
static __thread table marks;
static __thread request_state request;
/* The pointer shadows the thread's last request put back in its caller's
   memory (mask and before: the bytes it wrote). */
static __thread table left;
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

static mark *insert(table *t, uintptr_t granule, uint8_t mask,
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
  /* (Whole entries: one without a mark may still have records.) */
  for (size_t i = 0; i < old_capacity; ++i) {
    if (!old[i].granule || (!old[i].mask && !old[i].last))
      continue;
    for (size_t k = slot_of(old[i].granule, capacity);;
         k = (k + 1) & (capacity - 1))
      if (!t->slots[k].granule) {
        t->slots[k] = old[i];
        ++t->used;
        break;
      }
  }
  free(old);
}

/* Marks the bytes `mask` of the granule, whose bytes before the first
   mark are `before` (a pointer's shadow over a pointer's shadow keeps the
   bytes from before the first). */
static mark *insert(table *t, uintptr_t granule, uint8_t mask,
                    const unsigned char *before) {
  mark *m = find(t, granule);
  if (m) {
    for (unsigned b = 0; b < granule_bytes; ++b)
      if ((mask & ~m->mask) & (1u << b))
        m->before[b] = before[b];
    m->mask |= mask;
    return m;
  }
  /* (At most half full, cleared slots counted.) */
  if (2 * (t->used + 1) > t->capacity)
    grow(t);
  for (size_t i = slot_of(granule, t->capacity);; i = (i + 1) & (t->capacity - 1))
    if (!t->slots[i].granule) {
      memset(&t->slots[i], 0, sizeof(mark));
      t->slots[i].granule = granule;
      t->slots[i].mask = mask;
      memcpy(t->slots[i].before, before, granule_bytes);
      ++t->used;
      return &t->slots[i];
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
  /* (Its latest pointer store no longer ends the augmented sweep there.) */
  if (m->last && m->last <= request.count &&
      request.log[m->last - 1].granule == m->granule)
    request.log[m->last - 1].final_mask = 0;
}

void adcc_shadow_marks_begin(const void *caller_stack) {
  atomic_fetch_add_explicit(&generation, 1, memory_order_acq_rel);
  forget_all(&marks);
  marks.generation =
      atomic_load_explicit(&generation, memory_order_acquire);
  request.active = caller_stack != NULL;
  request.stack = (uintptr_t)caller_stack;
  request.count = 0;
  request.block_count = 0;
  request.final_count = 0;
}

static void push_record(uintptr_t granule, uint8_t starts,
                        const unsigned char *before, const mark *m) {
  if (request.count == request.capacity) {
    if (request.capacity >= UINT32_MAX / 2)
      adcc_rt_report("too many shadows of pointers stored in one request");
    size_t capacity = request.capacity ? 2 * request.capacity : 256;
    record *log = realloc(request.log, capacity * sizeof(record));
    if (!log)
      adcc_rt_report("out of memory recording the shadows of pointers");
    request.log = log;
    request.capacity = capacity;
  }
  record *r = &request.log[request.count++];
  r->granule = granule;
  r->starts = starts;
  memcpy(r->before, before, granule_bytes);
  r->prev = m->last;
  r->flags = latest | (m->flags & on_stack);
  r->final_mask = m->mask;
  if (m->last && m->last <= request.count - 1 &&
      request.log[m->last - 1].granule == granule)
    request.log[m->last - 1].flags &= (uint8_t)~latest;
}

static void mark_bytes(void *shadow, uint64_t bytes, int recorded) {
  if (!shadow || !bytes)
    return;
  table *t = current();
  recorded = recorded && request.active;
  /* (This frame lies below every frame of the request's sweeps.) */
  uintptr_t low = (uintptr_t)__builtin_frame_address(0);
  uintptr_t first = (uintptr_t)shadow, end = first + bytes;
  for (uintptr_t g = first & ~(uintptr_t)(granule_bytes - 1); g < end;
       g += granule_bytes) {
    uint8_t mask = bytes_in(g, first, end);
    unsigned char before[granule_bytes] = {0};
    for (unsigned b = 0; b < granule_bytes; ++b)
      if (mask & (1u << b))
        before[b] = ((const unsigned char *)g)[b];
    const mark *old = find(t, g);
    uint8_t starts = mask & ~(old ? old->mask : 0);
    int fresh = !old;
    /* (A pointer's shadow that the last request left in its caller's
       memory, still there, held no number: nothing to put back.) */
    const mark *l = fresh && left.used ? find(&left, g) : NULL;
    if (l && (l->mask & mask)) {
      int same = 1;
      for (unsigned b = 0; b < granule_bytes; ++b)
        if ((l->mask & mask & (1u << b)) && before[b] != l->before[b])
          same = 0;
      for (unsigned b = 0; same && b < granule_bytes; ++b)
        if (l->mask & mask & (1u << b))
          before[b] = 0;
    }
    mark *m = insert(t, g, mask, before);
    if (!recorded)
      continue;
    if (fresh && g >= low && g < request.stack)
      m->flags |= on_stack;
    push_record(g, starts, before, m);
    m->last = (uint32_t)request.count;
  }
  adcc_shadow_marks_live = 1;
}

void adcc_shadow_mark_pointer(void *shadow, uint64_t bytes) {
  mark_bytes(shadow, bytes, 0);
}

void adcc_shadow_mark_stored_pointer(void *shadow, uint64_t bytes) {
  mark_bytes(shadow, bytes, 1);
}

static void keep_final(uintptr_t granule, uint8_t mask,
                       const unsigned char *at, int stack) {
  if (request.final_count == request.final_capacity) {
    size_t capacity =
        request.final_capacity ? 2 * request.final_capacity : 256;
    final *finals = realloc(request.finals, capacity * sizeof(final));
    if (!finals)
      adcc_rt_report("out of memory recording the shadows of pointers");
    request.finals = finals;
    request.final_capacity = capacity;
  }
  final *f = &request.finals[request.final_count++];
  f->granule = granule;
  f->mask = mask;
  f->on_stack = (uint8_t)stack;
  memcpy(f->bytes, at, granule_bytes);
}

/* Undoes the record r of the granule at g. */
static void undo(record *r, uintptr_t g) {
  unsigned char *at = (unsigned char *)g;
  /* (The granule's last pointer store: its bytes are as the augmented
     sweep left them.) */
  if ((r->flags & latest) && r->final_mask)
    keep_final(g, r->final_mask, at, r->flags & on_stack);
  for (unsigned b = 0; b < granule_bytes; ++b)
    if (r->starts & (1u << b))
      at[b] = r->before[b];
  r->granule = 0;
}

void adcc_shadow_unmark_pointer(void *shadow, uint64_t bytes) {
  table *t = &marks;
  if (!request.active || !shadow || !bytes || !request.count ||
      t->generation != atomic_load_explicit(&generation, memory_order_acquire))
    return;
  uintptr_t first = (uintptr_t)shadow, end = first + bytes;
  for (uintptr_t g = first & ~(uintptr_t)(granule_bytes - 1); g < end;
       g += granule_bytes) {
    /* (The reverse sweep undoes the stores in the reverse order: the
       latest record is usually this granule's.) */
    record *top = request.count ? &request.log[request.count - 1] : NULL;
    if (top && top->granule == g) {
      undo(top, g);
    } else {
      mark *m = find(t, g);
      if (!m)
        continue;
      /* (Records undone at the top of the log are gone from it.) */
      uint32_t i = m->last;
      while (i && (i > request.count || request.log[i - 1].granule != g))
        i = i <= request.capacity ? request.log[i - 1].prev : 0;
      if (!i)
        continue;
      record *r = &request.log[i - 1];
      m->last = r->prev;
      undo(r, g);
    }
    while (request.count && !request.log[request.count - 1].granule)
      --request.count;
  }
}

static void own_block(uintptr_t first, uint64_t bytes) {
  if (request.block_count == request.block_capacity) {
    size_t capacity =
        request.block_capacity ? 2 * request.block_capacity : 64;
    block *blocks = realloc(request.blocks, capacity * sizeof(block));
    if (!blocks)
      adcc_rt_report("out of memory recording the shadows of pointers");
    request.blocks = blocks;
    request.block_capacity = capacity;
  }
  request.blocks[request.block_count].first = first;
  request.blocks[request.block_count].end = first + bytes;
  ++request.block_count;
}

void adcc_shadow_marks_owned(const void *block, uint64_t bytes) {
  if (request.active && block && bytes)
    own_block((uintptr_t)block, bytes);
}

void adcc_rt_marks_own(const void *block, size_t bytes) {
  adcc_shadow_marks_owned(block, bytes);
}

static int by_first(const void *a, const void *b) {
  uintptr_t x = ((const block *)a)->first, y = ((const block *)b)->first;
  return x < y ? -1 : x > y;
}

/* Whether the granule at g lies in a block the request allocated (sorted
   by their first bytes; they may overlap, freed and allocated again). */
static int owned(uintptr_t g) {
  size_t lo = 0, hi = request.block_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (request.blocks[mid].first <= g)
      lo = mid + 1;
    else
      hi = mid;
  }
  /* (Blocks that begin at or below g: the ones before lo.) */
  for (size_t i = lo; i-- > 0;) {
    if (request.blocks[i].end > g)
      return 1;
    if (lo - i > 64)
      break;
  }
  return 0;
}

void adcc_shadow_marks_end(void) {
  table *t = &marks;
  if (!request.active)
    return;
  request.active = 0;
  if (left.used)
    memset(left.slots, 0, left.capacity * sizeof(mark));
  left.used = 0;
  if (request.final_count &&
      t->generation == atomic_load_explicit(&generation, memory_order_acquire)) {
    qsort(request.blocks, request.block_count, sizeof(block), by_first);
    for (size_t i = 0; i < request.final_count; ++i) {
      const final *f = &request.finals[i];
      if (f->on_stack || owned(f->granule) ||
          adcc_rt_in_thread_tapes((const void *)f->granule))
        continue;
      for (unsigned b = 0; b < granule_bytes; ++b)
        if (f->mask & (1u << b))
          ((unsigned char *)f->granule)[b] = f->bytes[b];
      insert(&left, f->granule, f->mask, f->bytes);
    }
  }
  /* (The marks stay until the next request's begin forgets them.) */
  request.count = 0;
  request.block_count = 0;
  request.final_count = 0;
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
