/*===- pointer_marks_workers.c - Pointer stores of a request's workers ---===*
 *
 * The threads of an OpenMP region in a request's augmented sweep have no
 * request of their own: their stores of pointer shadows are recorded on
 * their own (pointer_marks.c), the reverse of the region undoes them on
 * the thread of the same number, and the request's end puts back the
 * pointer shadows the caller's memory held when the augmented sweep ended,
 * as it does for its own thread's. An OpenMP task records on a state of
 * its own, which its reverse takes on whichever thread it runs
 * (pointer_marks_tasks.c).
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE

#include "pointer_marks_internal.h"

#include <pthread.h>
#include <string.h>

enum { granule_bytes = 8 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static level_state *workers[ADCC_TAPE_LEVELS];

void adcc_rt_marks_enlist(level_state *w) {
  pthread_mutex_lock(&lock);
  if (!w->enlisted) {
    w->next_worker = workers[w->level];
    workers[w->level] = w;
    w->enlisted = 1;
  }
  pthread_mutex_unlock(&lock);
}

void adcc_rt_marks_delist(level_state *w) {
  pthread_mutex_lock(&lock);
  for (level_state **link = &workers[w->level]; *link;
       link = &(*link)->next_worker)
    if (*link == w) {
      *link = w->next_worker;
      w->enlisted = 0;
      break;
    }
  pthread_mutex_unlock(&lock);
}

/* Whether g lies in memory that is not the caller's: the owner's frames,
   blocks or tapes, the worker's stack or blocks. */
static int request_memory(const level_state *owner, const level_state *w,
                          const final *f, uintptr_t stack_low) {
  uintptr_t g = f->granule;
  return f->on_stack || adcc_rt_marks_owned_by(&w->request, g) ||
         adcc_rt_marks_owned_by(&owner->request, g) ||
         (g >= stack_low && g < owner->request.stack) ||
         adcc_rt_in_thread_tapes((const void *)g);
}

static void take_over(level_state *owner, level_state *w,
                      uintptr_t stack_low) {
  request_state *r = &w->request;
  adcc_rt_marks_sort_blocks(r);
  for (size_t i = 0; i < r->final_count; ++i) {
    const final *f = &r->finals[i];
    if (request_memory(owner, w, f, stack_low))
      continue;
    for (unsigned b = 0; b < granule_bytes; ++b)
      if (f->mask & (1u << b))
        ((unsigned char *)f->granule)[b] = f->bytes[b];
    adcc_rt_marks_insert(&owner->left, f->granule, f->mask, f->bytes);
  }
  r->active = none;
  r->count = r->block_count = r->final_count = 0;
}

void adcc_rt_marks_take_over(level_state *owner, unsigned long generation) {
  unsigned level = owner->level;
  uintptr_t stack_low = 0, stack_high = 0;
  pthread_mutex_lock(&lock);
  if (workers[level])
    adcc_rt_thread_stack(&stack_low, &stack_high);
  for (level_state **link = &workers[level]; *link;) {
    level_state *w = *link;
    int mine = w->request.active == worker &&
               w->worker_generation == generation;
    if (mine)
      take_over(owner, w, stack_low);
    /* (Gone from the list: those taken over, and those that stopped
       working, their request gone.) */
    if (mine || w->request.active != worker) {
      *link = w->next_worker;
      w->enlisted = 0;
      continue;
    }
    link = &w->next_worker;
  }
  pthread_mutex_unlock(&lock);
}
