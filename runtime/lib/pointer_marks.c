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
 * Marks are kept per thread and per tape level of the derivative that
 * makes them (a request nested in differentiated code begins and ends its
 * marks inside the outer request's augmented sweep, between the outer
 * derivative's own marks), in an open-addressing table of 8-byte granules
 * of shadow addresses, each with a mask of its bytes that hold a pointer's
 * shadow and their bytes from before. adcc_shadow_marks_begin, at the
 * start of each request's augmented sweep, makes every thread's marks of
 * its level stale (a counter of generations): shadow memory freed since
 * may be a caller's now. A request that begins while the thread's request
 * of the same level waits for its reverse sweep (split mode's augmented
 * sweeps, one after the other) puts that one aside until its own end.
 * Threads without a request of their own that store pointer shadows while
 * another thread's request of their level runs (an OpenMP region's
 * workers) record on their own, and that request's end takes their
 * records over (pointer_marks_workers.c). An OpenMP task and a region's
 * thread record on a state of their own (pointer_marks_tasks.c), and mark
 * the table of the state that began their request, one table per request
 * that all its threads and tasks share (pointer_marks_shared.c): a state
 * that created a task is shared from then on, and is read and changed
 * under its lock.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE

#include "pointer_marks_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

__thread uint64_t adcc_shadow_marks_live;
static __thread level_state *levels[ADCC_TAPE_LEVELS];
static atomic_ulong generations[ADCC_TAPE_LEVELS];
/* Requests of each level begun and not ended, on any thread. */
static atomic_int running[ADCC_TAPE_LEVELS];

enum { granule_bytes = 8, min_capacity = 64 };

static size_t slot_of(uintptr_t granule, size_t capacity) {
  uint64_t h = (uint64_t)granule * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 17) & (capacity - 1);
}

/* Whether any level of the thread holds marks (an OpenMP task's state, or
   the thread's own that it stands for while it runs). */
static __attribute__((noinline)) void refresh_live(void) {
  uint64_t live = 0;
  /* (The tables that other threads of the request may mark meanwhile: the
     flag is written under their locks, which their first mark takes to
     set it, so that no such mark is missed.) */
  level_state *roots[ADCC_TAPE_LEVELS];
  unsigned count = 0;
  for (unsigned k = 0; k < ADCC_TAPE_LEVELS; ++k) {
    level_state *L = levels[k];
    if (!L)
      continue;
    if (L->marks.used || L->creator_live ||
        (L->outer && L->outer->marks.used))
      live = 1;
    level_state *R = L->root ? L->root : L->shared ? L : NULL;
    if (R)
      roots[count++] = R;
  }
  unsigned locked = 0;
  for (; !live && locked < count; ++locked) {
    pthread_mutex_lock(&roots[locked]->lock);
    live = roots[locked]->marks.used != 0;
  }
  adcc_shadow_marks_live = live;
  while (locked)
    pthread_mutex_unlock(&roots[--locked]->lock);
}

void adcc_rt_marks_refresh(void) { refresh_live(); }

level_state **adcc_rt_marks_slot(unsigned level) { return &levels[level]; }

level_state *adcc_rt_marks_new_state(unsigned level) {
  level_state *L = calloc(1, sizeof *L);
  if (!L)
    return NULL;
  L->level = level;
  /* (Recursive: the functions that change the marks call each other.) */
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&L->lock, &attr);
  pthread_mutexattr_destroy(&attr);
  return L;
}

int adcc_rt_marks_lock(level_state *L) {
  /* (`shared` is set by the thread that runs the state, before the task
     that reads it exists: a thread that reads it from another state sees
     it set.) */
  if (!L->shared)
    return 0;
  pthread_mutex_lock(&L->lock);
  return 1;
}

void adcc_rt_marks_unlock(level_state *L, int locked) {
  if (locked)
    pthread_mutex_unlock(&L->lock);
}

static void forget_all(table *t) {
  /* (A large table that the last request filled little goes: the next
     request's begin would clear all of it again.) */
  if (t->capacity > 4096 && 8 * t->used < t->capacity) {
    free(t->slots);
    t->slots = NULL;
    t->capacity = 0;
  } else if (t->used) {
    memset(t->slots, 0, t->capacity * sizeof(mark));
  }
  t->used = 0;
}

static unsigned long generation_of(unsigned level) {
  return atomic_load_explicit(&generations[level], memory_order_acquire);
}

/* Whether the thread's marks of the level are older than the newest
   request of the level, and not its own request's (which keeps them
   until its end). */
static int stale(const level_state *L, unsigned level) {
  if (L->request.active == began)
    return 0;
  if (L->request.active == worker)
    return !L->held && L->worker_generation != generation_of(level);
  return L->marks.generation != generation_of(level);
}

unsigned long adcc_rt_marks_generation(unsigned level) {
  return generation_of(level);
}

/* The thread's first state of the level. */
static __attribute__((noinline)) level_state *new_thread_state(unsigned level) {
  if (level >= ADCC_TAPE_LEVELS)
    adcc_rt_report("pointer shadows marked on tape level %u; the runtime "
                   "has levels 0 to %u",
                   level, ADCC_TAPE_LEVELS - 1);
  /* (Never freed: another thread's request may take a worker's records
     over after the worker went on.) */
  level_state *L = adcc_rt_marks_new_state(level);
  if (!L)
    adcc_rt_report("out of memory marking the shadows of pointers");
  /* (The thread's own state: its tasks' and region threads' first marks
     in its table set the thread's flag.) */
  L->live_flag = &adcc_shadow_marks_live;
  levels[level] = L;
  return L;
}

static inline level_state *state_of(unsigned level) {
  level_state *L = ADCC_LIKELY(level < ADCC_TAPE_LEVELS) ? levels[level] : NULL;
  return ADCC_LIKELY(L) ? L : new_thread_state(level);
}

/* (Out of line, where it is seldom called.) */
static __attribute__((noinline)) level_state *state_at(unsigned level) {
  return state_of(level);
}

/* The thread's table of the level, emptied when a newer augmented sweep
   of the level began (not the thread's own request's). */
static table *current(level_state *L, unsigned level) {
  table *t = &L->marks;
  if (stale(L, level)) {
    int locked = adcc_rt_marks_lock(L);
    if (L->request.active == worker) {
      /* (The request it worked for is gone.) */
      L->request.active = none;
      L->request.count = L->request.block_count = L->request.final_count = 0;
    }
    forget_all(t);
    t->generation = generation_of(level);
    adcc_rt_marks_unlock(L, locked);
    refresh_live();
  }
  return t;
}

int adcc_rt_marks_any(level_state *L) {
  int locked = adcc_rt_marks_lock(L);
  int any = L->marks.used && !stale(L, L->level);
  adcc_rt_marks_unlock(L, locked);
  return any;
}

mark *adcc_rt_marks_find(const table *t, uintptr_t granule) {
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
mark *adcc_rt_marks_insert(table *t, uintptr_t granule, uint8_t mask,
                           const unsigned char *before) {
  mark *m = adcc_rt_marks_find(t, granule);
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
   the bytes held before it comes back (`write`; a member of a request
   forgets its own mark of bytes that the shared table's mark restored). */
static inline void restore(request_state *request, mark *m, int write) {
  for (unsigned b = 0; write && b < granule_bytes; ++b)
    if (m->mask & (1u << b))
      ((unsigned char *)m->granule)[b] = m->before[b];
  m->mask = 0;
  /* (Its latest pointer store no longer ends the augmented sweep there.) */
  if (m->last && m->last <= request->count &&
      request->log[m->last - 1].granule == m->granule)
    request->log[m->last - 1].final_mask = 0;
}

void adcc_rt_thread_stack(uintptr_t *low, uintptr_t *high) {
  /* (Asked once per thread: the main thread's answer reads the process's
     maps.) */
  static __thread uintptr_t known_low, known_high;
  static __thread int known;
  if (!known) {
    pthread_attr_t attr;
    if (!pthread_getattr_np(pthread_self(), &attr)) {
      void *base = NULL;
      size_t size = 0;
      if (!pthread_attr_getstack(&attr, &base, &size)) {
        known_low = (uintptr_t)base;
        known_high = (uintptr_t)base + size;
      }
      pthread_attr_destroy(&attr);
    }
    known = 1;
  }
  *low = known_low;
  *high = known_high;
}

/* The thread stores pointer shadows for another thread's request of the
   level (it has none of its own): it records them, and that request's
   end takes them over. */
static void become_worker(level_state *L, unsigned level) {
  int locked = adcc_rt_marks_lock(L);
  request_state *r = &L->request;
  r->active = worker;
  r->count = r->block_count = r->final_count = 0;
  uintptr_t low, high;
  adcc_rt_thread_stack(&low, &high);
  r->stack_low = low;
  r->stack = high;
  L->worker_generation = generation_of(level);
  forget_all(&L->marks);
  L->marks.generation = L->worker_generation;
  adcc_rt_marks_unlock(L, locked);
  refresh_live();
  adcc_rt_marks_enlist(L);
}

request_state *adcc_rt_marks_recording(unsigned level) {
  level_state *L = state_of(level);
  (void)current(L, level);
  if (!L->request.active &&
      atomic_load_explicit(&running[level], memory_order_acquire) > 0)
    become_worker(L, level);
  return L->request.active ? &L->request : NULL;
}

void adcc_shadow_marks_begin(const void *caller_stack, unsigned level) {
  level_state *L = state_of(level);
  /* (A request of the level not ended: split mode's augmented sweep,
     whose reverse sweep comes later, or the thread's work for another
     thread's request. Back at this request's end.) */
  if (L->request.active) {
    waiting *w = malloc(sizeof *w);
    if (!w)
      adcc_rt_report("out of memory marking the shadows of pointers");
    w->marks = L->marks;
    w->request = L->request;
    w->worker_generation = L->worker_generation;
    w->next = L->waiting;
    L->waiting = w;
    memset(&L->marks, 0, sizeof L->marks);
    memset(&L->request, 0, sizeof L->request);
  }
  atomic_fetch_add_explicit(&generations[level], 1, memory_order_acq_rel);
  forget_all(&L->marks);
  adcc_rt_marks_forget_nested(L);
  L->marks.generation = generation_of(level);
  L->request.active = caller_stack != NULL ? began : none;
  L->request.stack = (uintptr_t)caller_stack;
  L->request.stack_low = 0;
  L->request.count = 0;
  L->request.block_count = 0;
  L->request.final_count = 0;
  L->request.generation = L->marks.generation;
  if (caller_stack)
    atomic_fetch_add_explicit(&running[level], 1, memory_order_acq_rel);
  refresh_live();
}

static inline __attribute__((always_inline)) void push_record(request_state *request, uintptr_t granule,
                        uint8_t starts, const unsigned char *before,
                        const mark *m, uint8_t final_mask) {
  if (request->count == request->capacity) {
    if (request->capacity >= UINT32_MAX / 2)
      adcc_rt_report("too many shadows of pointers stored in one request");
    size_t capacity = request->capacity ? 2 * request->capacity : 256;
    record *log = realloc(request->log, capacity * sizeof(record));
    if (!log)
      adcc_rt_report("out of memory recording the shadows of pointers");
    request->log = log;
    request->capacity = capacity;
  }
  record *r = &request->log[request->count++];
  r->granule = granule;
  r->starts = starts;
  memcpy(r->before, before, granule_bytes);
  r->prev = m->last;
  r->flags = latest | (m->flags & on_stack);
  r->final_mask = final_mask;
  if (m->last && m->last <= request->count - 1 &&
      request->log[m->last - 1].granule == granule)
    request->log[m->last - 1].flags &= (uint8_t)~latest;
}

/* Marks [shadow, shadow + bytes) for the state `L`, a task's or region
   thread's (`member`: on the request's table; a constant, so that a
   thread's own marks take no test of it per granule). */
static inline __attribute__((always_inline)) void
mark_in(level_state *L, void *shadow, uint64_t bytes, int recorded,
        unsigned level, const int member) {
  int locked = adcc_rt_marks_lock(L);
  table *t = current(L, level);
  request_state *request = &L->request;
  if (recorded && request->active == none &&
      atomic_load_explicit(&running[level], memory_order_acquire) > 0)
    become_worker(L, level);
  recorded = recorded && request->active;
  /* (This frame lies below every frame of the request's sweeps; a
     worker's frames are all of its stack.) */
  uintptr_t low = request->active == worker
                      ? request->stack_low
                      : (uintptr_t)__builtin_frame_address(0);
  /* (A task's or region thread's state marks the request's table, and
     links its records on its own; pointer_marks_shared.c.) */
  level_state *R = member ? adcc_rt_marks_lock_root(L) : NULL;
  level_state *S = R ? R : L;
  table *shared = &S->marks;
  size_t was_used = shared->used;
  uintptr_t first = (uintptr_t)shadow, end = first + bytes;
  for (uintptr_t g = first & ~(uintptr_t)(granule_bytes - 1); g < end;
       g += granule_bytes) {
    uint8_t mask = bytes_in(g, first, end);
    unsigned char before[granule_bytes] = {0};
    for (unsigned b = 0; b < granule_bytes; ++b)
      if (mask & (1u << b))
        before[b] = ((const unsigned char *)g)[b];
    const mark *old = adcc_rt_marks_find(shared, g);
    uint8_t starts = mask & ~(old ? old->mask : 0);
    int fresh = !old;
    /* (A pointer's shadow that the last request left in its caller's
       memory, still there, held no number: nothing to put back.) */
    const mark *l =
        fresh && S->left.used ? adcc_rt_marks_find(&S->left, g) : NULL;
    if (l && (l->mask & mask)) {
      int same = 1;
      for (unsigned b = 0; b < granule_bytes; ++b)
        if ((l->mask & mask & (1u << b)) && before[b] != l->before[b])
          same = 0;
      for (unsigned b = 0; same && b < granule_bytes; ++b)
        if (l->mask & mask & (1u << b))
          before[b] = 0;
    }
    mark *m = adcc_rt_marks_insert(shared, g, mask, before);
    uint8_t final_mask = m->mask;
    if (!recorded)
      continue;
    if (R) {
      fresh = !adcc_rt_marks_find(t, g);
      m = adcc_rt_marks_insert(t, g, mask, before);
    }
    if (fresh && g >= low && g < request->stack)
      m->flags |= on_stack;
    push_record(request, g, starts, before, m, final_mask);
    m->last = (uint32_t)request->count;
  }
  /* (The request's other threads and tasks may store floats over it.) */
  if (!was_used && shared->used && S->shared)
    adcc_rt_marks_appear(S);
  if (R)
    pthread_mutex_unlock(&R->lock);
  adcc_rt_marks_unlock(L, locked);
  adcc_shadow_marks_live = 1;
}

static __attribute__((noinline)) void
mark_member(level_state *L, void *shadow, uint64_t bytes, int recorded,
            unsigned level) {
  mark_in(L, shadow, bytes, recorded, level, 1);
}

static void mark_bytes(void *shadow, uint64_t bytes, int recorded,
                       unsigned level) {
  if (!shadow || !bytes)
    return;
  level_state *L = state_of(level);
  if (ADCC_UNLIKELY(L->root != NULL))
    mark_member(L, shadow, bytes, recorded, level);
  else
    mark_in(L, shadow, bytes, recorded, level, 0);
}

void adcc_shadow_mark_pointer(void *shadow, uint64_t bytes, unsigned level) {
  mark_bytes(shadow, bytes, 0, level);
}

void adcc_shadow_mark_stored_pointer(void *shadow, uint64_t bytes,
                                     unsigned level) {
  mark_bytes(shadow, bytes, 1, level);
}

void adcc_rt_marks_keep_final(request_state *request, uintptr_t granule,
                              uint8_t mask, const unsigned char *at,
                              int stack) {
  if (request->final_count == request->final_capacity) {
    size_t capacity =
        request->final_capacity ? 2 * request->final_capacity : 256;
    final *finals = realloc(request->finals, capacity * sizeof(final));
    if (!finals)
      adcc_rt_report("out of memory recording the shadows of pointers");
    request->finals = finals;
    request->final_capacity = capacity;
  }
  final *f = &request->finals[request->final_count++];
  f->granule = granule;
  f->mask = mask;
  f->on_stack = (uint8_t)stack;
  memcpy(f->bytes, at, granule_bytes);
}

/* Undoes the record r of the granule at g of `L`'s request; `held` (in
   a request's member: the bytes that hold a pointer's shadow in the
   shared table, not a float stored over it by another thread or task). */
static void undo(level_state *L, record *r, uintptr_t g, uint8_t held) {
  request_state *request = &L->request;
  unsigned char *at = (unsigned char *)g;
  /* (The granule's last pointer store: its bytes are as the augmented
     sweep left them, and so are those of their outer shadow, where an
     outer request differentiates this one: pointer_marks_nested.c.) */
  if ((r->flags & latest) && (r->final_mask & held)) {
    adcc_rt_marks_keep_final(request, g, r->final_mask & held, at,
                             r->flags & on_stack);
    if (ADCC_UNLIKELY(L->pairs.used != 0))
      adcc_rt_marks_keep_outer(L, g, r->final_mask & held);
  }
  for (unsigned b = 0; b < granule_bytes; ++b)
    if (r->starts & (1u << b))
      at[b] = r->before[b];
  r->granule = 0;
}

static inline __attribute__((always_inline)) void
unmark_in(level_state *L, void *shadow, uint64_t bytes, unsigned level,
          const int member) {
  request_state *request = &L->request;
  int locked = adcc_rt_marks_lock(L);
  if (!request->active || !request->count || stale(L, level)) {
    adcc_rt_marks_unlock(L, locked);
    return;
  }
  table *t = &L->marks;
  level_state *R = member ? adcc_rt_marks_lock_root(L) : NULL;
  uintptr_t first = (uintptr_t)shadow, end = first + bytes;
  for (uintptr_t g = first & ~(uintptr_t)(granule_bytes - 1); g < end;
       g += granule_bytes) {
    uint8_t held = 0xff;
    if (R) {
      const mark *s = adcc_rt_marks_find(&R->marks, g);
      held = s ? s->mask : 0;
    }
    /* (The reverse sweep undoes the stores in the reverse order: the
       latest record is usually this granule's.) */
    record *top = request->count ? &request->log[request->count - 1] : NULL;
    if (top && top->granule == g) {
      undo(L, top, g, held);
    } else {
      mark *m = adcc_rt_marks_find(t, g);
      if (!m)
        continue;
      /* (Records undone at the top of the log are gone from it.) */
      uint32_t i = m->last;
      while (i && (i > request->count || request->log[i - 1].granule != g))
        i = i <= request->capacity ? request->log[i - 1].prev : 0;
      if (!i)
        continue;
      record *r = &request->log[i - 1];
      m->last = r->prev;
      undo(L, r, g, held);
    }
    while (request->count && !request->log[request->count - 1].granule)
      --request->count;
  }
  if (R)
    pthread_mutex_unlock(&R->lock);
  adcc_rt_marks_unlock(L, locked);
}

static __attribute__((noinline)) void
unmark_member(level_state *L, void *shadow, uint64_t bytes, unsigned level) {
  unmark_in(L, shadow, bytes, level, 1);
}

void adcc_shadow_unmark_pointer(void *shadow, uint64_t bytes,
                                unsigned level) {
  level_state *L = level < ADCC_TAPE_LEVELS ? levels[level] : NULL;
  if (!L || !shadow || !bytes)
    return;
  if (ADCC_UNLIKELY(L->root != NULL))
    unmark_member(L, shadow, bytes, level);
  else
    unmark_in(L, shadow, bytes, level, 0);
}

void adcc_rt_marks_own_block(request_state *request, uintptr_t first,
                             uint64_t bytes) {
  if (request->block_count == request->block_capacity) {
    size_t capacity =
        request->block_capacity ? 2 * request->block_capacity : 64;
    block *blocks = realloc(request->blocks, capacity * sizeof(block));
    if (!blocks)
      adcc_rt_report("out of memory recording the shadows of pointers");
    request->blocks = blocks;
    request->block_capacity = capacity;
  }
  request->blocks[request->block_count].first = first;
  request->blocks[request->block_count].end = first + bytes;
  ++request->block_count;
}

void adcc_shadow_marks_owned(const void *block, uint64_t bytes) {
  if (!block || !bytes)
    return;
  /* (A block allocated within a nested request is the outer request's
     too; a worker's, that of the request it works for.) */
  for (unsigned k = 0; k < ADCC_TAPE_LEVELS; ++k) {
    level_state *L = levels[k];
    if (L && L->request.active == worker && stale(L, k))
      (void)current(L, k);
    if ((!L || !L->request.active) &&
        atomic_load_explicit(&running[k], memory_order_acquire) > 0)
      become_worker(L = state_at(k), k);
    if (L && L->request.active)
      adcc_rt_marks_own_block(&L->request, (uintptr_t)block, bytes);
  }
}

void adcc_rt_marks_own(const void *block, size_t bytes) {
  adcc_shadow_marks_owned(block, bytes);
}

static int by_first(const void *a, const void *b) {
  uintptr_t x = ((const block *)a)->first, y = ((const block *)b)->first;
  return x < y ? -1 : x > y;
}

void adcc_rt_marks_sort_blocks(request_state *request) {
  qsort(request->blocks, request->block_count, sizeof(block), by_first);
}

/* Whether the granule at g lies in a block the request allocated (sorted
   by their first bytes; they may overlap, freed and allocated again). */
int adcc_rt_marks_owned_by(const request_state *request, uintptr_t g) {
  size_t lo = 0, hi = request->block_count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (request->blocks[mid].first <= g)
      lo = mid + 1;
    else
      hi = mid;
  }
  /* (Blocks that begin at or below g: the ones before lo.) */
  for (size_t i = lo; i-- > 0;) {
    if (request->blocks[i].end > g)
      return 1;
    if (lo - i > 64)
      break;
  }
  return 0;
}

void adcc_shadow_marks_end(unsigned level) {
  level_state *L = level < ADCC_TAPE_LEVELS ? levels[level] : NULL;
  if (!L || L->request.active != began)
    return;
  request_state *request = &L->request;
  atomic_fetch_sub_explicit(&running[level], 1, memory_order_acq_rel);
  if (L->left.used)
    memset(L->left.slots, 0, L->left.capacity * sizeof(mark));
  L->left.used = 0;
  adcc_rt_marks_sort_blocks(request);
  size_t next_outer = 0;
  for (size_t i = 0; i < request->final_count; ++i) {
    const final *f = &request->finals[i];
    if (f->on_stack || adcc_rt_marks_owned_by(request, f->granule) ||
        adcc_rt_in_thread_tapes((const void *)f->granule))
      continue;
    for (unsigned b = 0; b < granule_bytes; ++b)
      if (f->mask & (1u << b))
        ((unsigned char *)f->granule)[b] = f->bytes[b];
    adcc_rt_marks_insert(&L->left, f->granule, f->mask, f->bytes);
    /* (Where an outer request differentiates this one, it gets the outer
       shadows of the pointer shadows put back: pointer_marks_nested.c.) */
    if (ADCC_UNLIKELY(request->outer_count != 0))
      adcc_rt_marks_hand_outer(L, i, &next_outer);
  }
  adcc_rt_marks_close_nest(L);
  adcc_rt_marks_forget_nested(L);
  /* (The records of other threads that worked for it.) */
  adcc_rt_marks_take_over(L, request->generation);
  request->active = none;
  /* (The marks stay until the next request's begin forgets them.) */
  request->count = 0;
  request->block_count = 0;
  request->final_count = 0;
  /* (The request this one put aside comes back.) */
  if (L->waiting) {
    waiting *w = L->waiting;
    L->waiting = w->next;
    free(L->marks.slots);
    free(request->log);
    free(request->blocks);
    free(request->finals);
    free(request->outers);
    L->marks = w->marks;
    L->request = w->request;
    L->worker_generation = w->worker_generation;
    free(w);
  }
  refresh_live();
}

static void clear_marked(level_state *L, unsigned level, void *shadow,
                         uint64_t bytes);
static void forget_marked(level_state *L, unsigned level, void *shadow,
                          uint64_t bytes);

void adcc_shadow_clear_pointers(void *shadow, uint64_t bytes, unsigned level) {
  /* (Marks of an older sweep are none; the flag stays as it is: adcore
     tells LLVM that this function does not write it, so that a loop of
     stores tests it once.) */
  level_state *L = level < ADCC_TAPE_LEVELS ? levels[level] : NULL;
  if (!L || !shadow || !bytes)
    return;
  /* (In an OpenMP task or a region's thread: the request's table, which
     all its threads and tasks mark, and the task's own marks, whose
     records no longer end the augmented sweep there;
     pointer_marks_shared.c.) */
  level_state *R = L->root ? adcc_rt_marks_lock_root(L) : NULL;
  if (R) {
    clear_marked(R, level, shadow, bytes);
    pthread_mutex_unlock(&R->lock);
    forget_marked(L, level, shadow, bytes);
    /* (The thread's own marks, made before the task, where they are not
       the request's.) */
    level_state *O = L->outer;
    if (O && O != R && O->root != R)
      clear_marked(O, level, shadow, bytes);
    return;
  }
  clear_marked(L, level, shadow, bytes);
  /* (In an OpenMP task: also the marks of the thread, made before it, and
     those of the contexts that created the task, on whichever thread they
     were made.) */
  if (L->outer)
    clear_marked(L->outer, level, shadow, bytes);
  if (L->creator_live)
    for (level_state *c = L->creator; c; c = c->creator)
      if (c != L->outer)
        clear_marked(c, level, shadow, bytes);
}

/* Restores (`write`) or forgets the marks of `L` in [shadow, shadow +
   bytes). */
static inline __attribute__((always_inline)) void
clear_in(level_state *L, unsigned level, void *shadow, uint64_t bytes,
         const int write) {
  table *t = &L->marks;
  int locked = adcc_rt_marks_lock(L);
  if (!t->used || stale(L, level)) {
    adcc_rt_marks_unlock(L, locked);
    return;
  }
  uintptr_t first = (uintptr_t)shadow, end = first + bytes;
  uintptr_t g = first & ~(uintptr_t)(granule_bytes - 1);
  /* (A long range against a few marks: the marks are looked at.) */
  if ((end - g) / granule_bytes > t->capacity) {
    for (size_t i = 0; i < t->capacity; ++i) {
      mark *m = &t->slots[i];
      if (m->mask && m->granule + granule_bytes > first && m->granule < end)
        restore(&L->request, m, write);
    }
    adcc_rt_marks_unlock(L, locked);
    return;
  }
  for (; g < end; g += granule_bytes) {
    mark *m = adcc_rt_marks_find(t, g);
    if (!m || !m->mask)
      continue;
    restore(&L->request, m, write);
  }
  adcc_rt_marks_unlock(L, locked);
}

static void clear_marked(level_state *L, unsigned level, void *shadow,
                         uint64_t bytes) {
  clear_in(L, level, shadow, bytes, 1);
}

static void forget_marked(level_state *L, unsigned level, void *shadow,
                          uint64_t bytes) {
  clear_in(L, level, shadow, bytes, 0);
}

static inline __attribute__((always_inline)) void
mark_loaded_in(level_state *L, void *shadow, uint64_t bytes, unsigned level,
               const int member) {
  int locked = adcc_rt_marks_lock(L);
  table *t = current(L, level);
  /* (A task's or region thread's state: the request's table.) */
  level_state *R = member ? adcc_rt_marks_lock_root(L) : NULL;
  level_state *S = R ? R : L;
  if (R)
    t = &R->marks;
  size_t was_used = t->used;
  uintptr_t first = (uintptr_t)shadow, end = first + bytes;
  static const unsigned char zero[granule_bytes];
  for (uintptr_t g = first & ~(uintptr_t)(granule_bytes - 1); g < end;
       g += granule_bytes) {
    uint8_t mask = bytes_in(g, first, end);
    /* (Bytes marked already keep what they held before; a pointer read
       again, as a list's links are, is usually marked.) */
    const mark *m = adcc_rt_marks_find(t, g);
    if (m && (m->mask & mask) == mask)
      continue;
    adcc_rt_marks_insert(t, g, mask, zero);
  }
  if (!was_used && t->used && S->shared)
    adcc_rt_marks_appear(S);
  if (R)
    pthread_mutex_unlock(&R->lock);
  adcc_rt_marks_unlock(L, locked);
  adcc_shadow_marks_live = 1;
}

static __attribute__((noinline)) void
mark_loaded_member(level_state *L, void *shadow, uint64_t bytes,
                   unsigned level) {
  mark_loaded_in(L, shadow, bytes, level, 1);
}

void adcc_shadow_mark_loaded_pointer(void *shadow, uint64_t bytes,
                                     unsigned level) {
  if (!shadow || !bytes)
    return;
  level_state *L = state_of(level);
  if (ADCC_UNLIKELY(L->root != NULL))
    mark_loaded_member(L, shadow, bytes, level);
  else
    mark_loaded_in(L, shadow, bytes, level, 0);
}
