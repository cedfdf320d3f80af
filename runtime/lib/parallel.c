/*===- parallel.c - Tapes of the threads of a parallel region -------------===*
 *
 * The reverse of an OpenMP parallel region is a parallel region of as many
 * threads, in which thread t replays what thread t of the augmented region
 * recorded. Each thread records on its own tape; the region's handle notes
 * which tape thread t used, so that the reverse region's thread t pops from
 * that tape even when the OpenMP runtime gave thread number t to another
 * system thread this time (the caller's thread, number 0, always keeps
 * its own). The runtime does not depend on the OpenMP runtime: the
 * generated code passes thread numbers and team sizes in.
 *
 * Critical sections whose reverse depends on the order the threads ran
 * them in (a running maximum, a product) are replayed in the reverse of
 * that order: in the augmented region each thread takes a ticket from the
 * region's turn counter as it leaves such a section (inside it, so the
 * tickets of one lock follow the order the threads held the lock), and
 * records it; in the reverse region a thread waits until the counter is
 * one past its ticket, enters the section and passes the turn on (the
 * counter goes to its ticket). The tickets of one thread and of the
 * segments between barriers are ordered as its program and the barriers
 * are, so the reverse of the recorded order is always a possible order.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tape_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct parallel_region {
  pthread_mutex_t lock;
  int threads;          /* the augmented region's team size (0: not yet) */
  adcc_tape **tapes;    /* by thread number */
  _Atomic long turn;    /* tickets of ordered critical sections taken */
} parallel_region;

/* What resume hands to leave: the tape the thread had. */
typedef struct parallel_saved {
  adcc_tape *own;
  int lent;
} parallel_saved;

static _Thread_local parallel_saved saved_tapes[ADCC_TAPE_LEVELS];
/* The region whose augmented or reverse sweep the thread runs, by level. */
static _Thread_local parallel_region *current_region[ADCC_TAPE_LEVELS];

void *adcc_parallel_new(void) {
  parallel_region *r = calloc(1, sizeof *r);
  if (!r) {
    adcc_rt_report("out of memory allocating a parallel region's tapes");
    return NULL;
  }
  pthread_mutex_init(&r->lock, NULL);
  return r;
}

void adcc_parallel_enter(void *region, int thread, int threads,
                         unsigned level) {
  parallel_region *r = region;
  if (!r || threads <= 0 || thread < 0 || thread >= threads)
    return;
  adcc_tape *tape = adcc_tape_thread_level(level);
  pthread_mutex_lock(&r->lock);
  if (!r->tapes) {
    r->tapes = calloc((size_t)threads, sizeof *r->tapes);
    r->threads = r->tapes ? threads : 0;
  }
  int ok = r->tapes && r->threads == threads;
  if (ok)
    r->tapes[thread] = tape;
  pthread_mutex_unlock(&r->lock);
  if (!ok)
    adcc_rt_report("parallel region: thread %d of %d could not note its "
                   "tape (out of memory, or teams of different sizes)",
                   thread, threads);
}

int adcc_parallel_threads(const void *region) {
  const parallel_region *r = region;
  return r && r->threads > 0 ? r->threads : 1;
}

void *adcc_parallel_resume(void *region, int thread, int threads,
                           unsigned level) {
  parallel_region *r = region;
  if (level >= ADCC_TAPE_LEVELS)
    return NULL;
  parallel_saved *s = &saved_tapes[level];
  s->lent = 0;
  if (!r || !r->tapes)
    return s; /* no thread recorded: nothing to replay */
  if (threads != r->threads || thread < 0 || thread >= threads ||
      !r->tapes[thread]) {
    adcc_rt_report("the reverse of a parallel region runs with %d threads "
                   "(thread %d), but its forward sweep ran with %d; the "
                   "OpenMP runtime must give both regions as many threads "
                   "(OMP_DYNAMIC=false, no thread limit below the first "
                   "team's size)",
                   threads, thread, r->threads);
    return s;
  }
  adcc_tape *recorded = r->tapes[thread];
  if (recorded == adcc_tape_thread_level(level))
    return s;
  s->own = adcc_rt_exchange_thread_tape(level, recorded);
  s->lent = 1;
  return s;
}

void adcc_parallel_leave(void *saved, unsigned level) {
  parallel_saved *s = saved;
  if (!s || !s->lent)
    return;
  adcc_rt_exchange_thread_tape(level, s->own);
  s->lent = 0;
}

void adcc_parallel_free(void *region) {
  parallel_region *r = region;
  if (!r)
    return;
  pthread_mutex_destroy(&r->lock);
  free(r->tapes);
  free(r);
}

static parallel_region *current(unsigned level) {
  return level < ADCC_TAPE_LEVELS ? current_region[level] : NULL;
}

void *adcc_parallel_swap(void *region, unsigned level) {
  if (level >= ADCC_TAPE_LEVELS)
    return NULL;
  parallel_region *previous = current_region[level];
  current_region[level] = region;
  return previous;
}

long adcc_parallel_ticket(unsigned level) {
  parallel_region *r = current(level);
  if (!r) {
    adcc_rt_report("an ordered critical section runs outside the "
                   "augmented sweep of a parallel region");
    return 0;
  }
  return atomic_fetch_add_explicit(&r->turn, 1, memory_order_acq_rel);
}

void adcc_parallel_wait_turn(long ticket, unsigned level) {
  parallel_region *r = current(level);
  if (!r)
    return;
  for (unsigned spins = 0;
       atomic_load_explicit(&r->turn, memory_order_acquire) != ticket + 1;
       ++spins)
    if (spins >= 64)
      sched_yield();
}

void adcc_parallel_pass_turn(long ticket, unsigned level) {
  parallel_region *r = current(level);
  if (r)
    atomic_store_explicit(&r->turn, ticket, memory_order_release);
}
