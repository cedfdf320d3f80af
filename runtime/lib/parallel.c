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
 * A region nested in another (started by a thread of a region, also
 * inside a callee, or by each thread of a program's own region that calls
 * a derivative) has teams whose other threads (numbers above 0) the OpenMP
 * runtime takes from a pool shared by all the inner regions that run at
 * once: a system thread's tape would hold the records of several regions,
 * interleaved in the order it ran them, which their reverse regions (at
 * once, in another order) cannot pop. There every thread but number 0
 * records on a tape of the region's own, made when it enters and given
 * back when it leaves; thread 0, the thread that started the region,
 * records on its tape, among what it records around the region.
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
 * Regions nested in a region (in its threads' augmented sweeps) take their
 * tickets from the outermost one's counter: their sections may update the
 * same memory from different threads of it (a maximum over all of them).
 *
 * The OpenMP API's locks (omp_set_lock ... omp_unset_lock) are critical
 * sections too. The reverse region cannot take the program's lock, which
 * may be gone by then (a local of the function, destroyed): it takes a
 * lock of the outermost region's own that stands for it, found by the
 * program's lock's address (which identified the lock while the augmented
 * region held it), made at its first use and freed with the region.
 *
 * Run-time overlap checks (adcore/lib/reverse/ApartChecks.cpp): the
 * augmented region notes, per check, whether the arrays a loop reads at
 * the iteration's own element were found apart; the reverse region's
 * adjoint updates of those elements are plain only where every note said
 * apart (none noted, or one overlap: atomic).
 *
 * Marks of pointer shadows (pointer_marks_tasks.c): each thread of the
 * team but number 0 marks and records its pointer stores on a state of the
 * region's own, by thread number, as an OpenMP task does: the reverse
 * region's thread t undoes what thread t recorded on whichever system
 * thread runs it, the records stay the request's while another thread's
 * request begins (concurrent gradients, each with its regions), and all
 * the threads mark the table of the request, which they share with the
 * thread that began it and its tasks (pointer_marks_shared.c): a float
 * stored over a link that another thread stored before a barrier, or
 * before the region, puts back what the bytes held. The region's free hands
 * what their granules ended the augmented sweep with to the request.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tape_internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/* The tape a thread had before the region gave it another (its tape of
 * the region, or the tape another thread recorded). One per thread of the
 * region, in the region: a reverse region that runs inside another on the
 * same system thread (a nested region, or a region of a callee that the
 * reverse of a region runs) has its own, so that leaving the inner one
 * cannot lose what the outer one must give back. */
typedef struct parallel_saved {
  adcc_tape *own;
  int lent;
  void *marks, *marks_saved; /* the thread's marks taken, and its own */
} parallel_saved;

/* A lock of the reverse region standing for the program's lock `key`. */
typedef struct parallel_lock {
  const void *key;
  pthread_mutex_t mutex;
} parallel_lock;

typedef struct parallel_region {
  pthread_mutex_t lock;
  /* The reverse region's locks, by the program's lock's address (an open
   * addressing table of lock_slots entries, under `lock`). */
  parallel_lock **locks;
  size_t lock_slots, lock_count;
  int threads;           /* the augmented region's team size (0: not yet) */
  adcc_tape **tapes;     /* by thread number */
  parallel_saved *saved; /* by thread number */
  unsigned char *owned;  /* by thread number: tapes[t] is the region's */
  /* By thread number: the tasks thread t created that no sync point inside
   * the region waited for (runtime/lib/tasks.c), spawned at the start of
   * its reverse. */
  void **tasks;
  _Atomic long turn;     /* tickets of ordered critical sections taken */
  /* The region whose turn counter this one's sections use: the outermost
   * region around it whose augmented sweep started it (itself at the top),
   * so that sections of regions nested in different threads of one region
   * are replayed in the reverse of the order they ran in, all together. */
  struct parallel_region *root;
  _Atomic int reversing; /* its reverse region started */
  /* Run-time overlap checks, one bit each: noted, found overlapping. */
  _Atomic unsigned long long apart_noted, overlapping;
  /* By thread number (above 0): its marks of pointer shadows; those of the
   * thread that started the region, and their level (marks_on: made by
   * adcc_parallel_new_at). */
  void **marks;
  void *creator_marks;
  unsigned marks_level;
  int marks_on;
} parallel_region;

/* The region whose augmented or reverse sweep the thread runs, by level. */
static _Thread_local parallel_region *current_region[ADCC_TAPE_LEVELS];

void *adcc_parallel_new(void) {
  parallel_region *r = calloc(1, sizeof *r);
  if (!r) {
    adcc_rt_report("out of memory allocating a parallel region's tapes");
    return NULL;
  }
  pthread_mutex_init(&r->lock, NULL);
  r->root = r;
  return r;
}

void *adcc_parallel_new_at(unsigned level) {
  parallel_region *r = adcc_parallel_new();
  parallel_region *outer =
      level < ADCC_TAPE_LEVELS ? current_region[level] : NULL;
  /* (Inside the reverse of a region, a region recomputed there has turns
   * of its own.) */
  if (r && outer && !atomic_load(&outer->reversing))
    r->root = outer->root;
  if (r && level < ADCC_TAPE_LEVELS) {
    r->marks_level = level;
    r->creator_marks = adcc_rt_marks_task_creator(level);
    r->marks_on = 1;
  }
  return r;
}

/* The arrays by thread number of \p r, made for a team of \p threads by
 * the first thread that enters (under the lock); 0 when they cannot be. */
static int allocate_threads(parallel_region *r, int threads) {
  if (!r->tapes) {
    r->tapes = calloc((size_t)threads, sizeof *r->tapes);
    r->saved = calloc((size_t)threads, sizeof *r->saved);
    r->owned = calloc((size_t)threads, sizeof *r->owned);
    r->tasks = calloc((size_t)threads, sizeof *r->tasks);
    r->marks = calloc((size_t)threads, sizeof *r->marks);
    if (!r->tapes || !r->saved || !r->owned || !r->tasks || !r->marks) {
      free(r->tapes);
      free(r->saved);
      free(r->owned);
      free(r->tasks);
      free(r->marks);
      r->tapes = NULL;
      r->saved = NULL;
      r->owned = NULL;
      r->tasks = NULL;
      r->marks = NULL;
    }
    r->threads = r->tapes ? threads : 0;
  }
  return r->tapes && r->threads == threads;
}

void adcc_parallel_enter_at(void *region, int thread, int threads, int depth,
                            unsigned level) {
  parallel_region *r = region;
  if (!r || threads <= 0 || thread < 0 || thread >= threads ||
      level >= ADCC_TAPE_LEVELS)
    return;
  int own = depth > 1 && thread > 0; /* (a pool thread of a nested team) */
  adcc_tape *tape = own ? adcc_tape_create() : adcc_tape_thread_level(level);
  pthread_mutex_lock(&r->lock);
  int ok = tape && allocate_threads(r, threads);
  if (ok) {
    r->tapes[thread] = tape;
    r->owned[thread] = (unsigned char)own;
  }
  pthread_mutex_unlock(&r->lock);
  if (!ok) {
    if (own)
      adcc_tape_destroy(tape);
    adcc_rt_report("parallel region: thread %d of %d could not note its "
                   "tape (out of memory, or teams of different sizes)",
                   thread, threads);
    return;
  }
  if (own) {
    parallel_saved *s = &r->saved[thread];
    s->own = adcc_rt_exchange_thread_tape(level, tape);
    s->lent = 1;
  }
  if (thread > 0 && r->marks_on) {
    parallel_saved *s = &r->saved[thread];
    s->marks_saved = adcc_rt_marks_task_enter(r->marks_level, &r->marks[thread],
                                              r->creator_marks);
    s->marks = r->marks[thread];
  }
}

void adcc_parallel_enter(void *region, int thread, int threads,
                         unsigned level) {
  adcc_parallel_enter_at(region, thread, threads, 1, level);
}

void adcc_parallel_exit(void *region, int thread, unsigned level) {
  parallel_region *r = region;
  if (!r || !r->tapes || thread < 0 || thread >= r->threads)
    return;
  parallel_saved *s = &r->saved[thread];
  if (s->marks) {
    adcc_rt_marks_task_leave(r->marks_level, s->marks, s->marks_saved);
    s->marks = NULL;
  }
  if (!s->lent)
    return;
  adcc_rt_exchange_thread_tape(level, s->own);
  s->lent = 0;
}

int adcc_parallel_threads(const void *region) {
  const parallel_region *r = region;
  return r && r->threads > 0 ? r->threads : 1;
}

void *adcc_parallel_resume(void *region, int thread, int threads,
                           unsigned level) {
  parallel_region *r = region;
  if (level >= ADCC_TAPE_LEVELS || !r || !r->tapes)
    return NULL; /* no thread recorded: nothing to replay */
  if (threads != r->threads || thread < 0 || thread >= threads ||
      !r->tapes[thread]) {
    adcc_rt_report("the reverse of a parallel region runs with %d threads "
                   "(thread %d), but its forward sweep ran with %d; the "
                   "OpenMP runtime must give both regions as many threads "
                   "(OMP_DYNAMIC=false, no thread limit below the first "
                   "team's size)",
                   threads, thread, r->threads);
    return NULL;
  }
  atomic_store(&r->reversing, 1);
  parallel_saved *s = &r->saved[thread];
  s->lent = 0;
  s->marks = NULL;
  if (thread > 0 && r->marks && r->marks[thread]) {
    s->marks_saved =
        adcc_rt_marks_task_enter(r->marks_level, &r->marks[thread], NULL);
    s->marks = r->marks[thread];
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
  if (s && s->marks) {
    adcc_rt_marks_task_leave(level, s->marks, s->marks_saved);
    s->marks = NULL;
  }
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
  for (size_t k = 0; k < r->lock_slots; ++k)
    if (r->locks[k]) {
      pthread_mutex_destroy(&r->locks[k]->mutex);
      free(r->locks[k]);
    }
  free(r->locks);
  for (int t = 0; r->owned && t < r->threads; ++t)
    if (r->owned[t])
      adcc_tape_destroy(r->tapes[t]);
  /* (After the reverse region: the request of the thread that started
     the region takes what the threads' granules ended with.) */
  for (int t = 0; r->marks && t < r->threads; ++t)
    adcc_rt_marks_task_free(r->marks_level, r->marks[t]);
  free(r->marks);
  free(r->tapes);
  free(r->saved);
  free(r->owned);
  free(r->tasks);
  free(r);
}

void adcc_parallel_note_tasks(void *region, int thread, void *batch) {
  parallel_region *r = region;
  if (!batch)
    return;
  if (!r || !r->tasks || thread < 0 || thread >= r->threads) {
    adcc_rt_report("parallel region: thread %d could not note its tasks",
                   thread);
    return;
  }
  r->tasks[thread] = batch;
}

void *adcc_parallel_tasks(void *region, int thread) {
  parallel_region *r = region;
  if (!r || !r->tasks || thread < 0 || thread >= r->threads)
    return NULL;
  void *batch = r->tasks[thread];
  r->tasks[thread] = NULL;
  return batch;
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
  return atomic_fetch_add_explicit(&r->root->turn, 1, memory_order_acq_rel);
}

void adcc_parallel_wait_turn(long ticket, unsigned level) {
  parallel_region *r = current(level);
  if (!r)
    return;
  for (unsigned spins = 0;
       atomic_load_explicit(&r->root->turn, memory_order_acquire) !=
       ticket + 1;
       ++spins)
    if (spins >= 64)
      sched_yield();
}

void adcc_parallel_pass_turn(long ticket, unsigned level) {
  parallel_region *r = current(level);
  if (r)
    atomic_store_explicit(&r->root->turn, ticket, memory_order_release);
}

void adcc_parallel_note_apart(unsigned check, int apart, unsigned level) {
  parallel_region *r = current(level);
  if (!r || check >= 64)
    return;
  unsigned long long bit = 1ull << check;
  /* (Every thread of a loop notes the same, every chunk of a dynamic
   * schedule again: write only what changes.) */
  if (!apart &&
      !(atomic_load_explicit(&r->overlapping, memory_order_relaxed) & bit))
    atomic_fetch_or_explicit(&r->overlapping, bit, memory_order_relaxed);
  if (!(atomic_load_explicit(&r->apart_noted, memory_order_relaxed) & bit))
    atomic_fetch_or_explicit(&r->apart_noted, bit, memory_order_relaxed);
}

int adcc_parallel_apart(unsigned check, unsigned level) {
  parallel_region *r = current(level);
  if (!r || check >= 64)
    return 0;
  unsigned long long bit = 1ull << check;
  return (atomic_load_explicit(&r->apart_noted, memory_order_relaxed) & bit) &&
         !(atomic_load_explicit(&r->overlapping, memory_order_relaxed) & bit);
}

/* The slot of `key` in a table of `slots` (a power of two) entries. */
static size_t lock_slot(parallel_lock **locks, size_t slots, const void *key) {
  size_t k = ((uintptr_t)key >> 3) * 0x9E3779B97F4A7C15ull & (slots - 1);
  while (locks[k] && locks[k]->key != key)
    k = (k + 1) & (slots - 1);
  return k;
}

/* The lock standing for `key` in the root region of `r`, made at its first
   use (under the root's lock). */
static parallel_lock *lock_for(parallel_region *r, const void *key) {
  r = r->root;
  pthread_mutex_lock(&r->lock);
  parallel_lock *found = NULL;
  if (r->lock_slots) {
    size_t k = lock_slot(r->locks, r->lock_slots, key);
    found = r->locks[k];
  }
  if (!found) {
    if (2 * (r->lock_count + 1) > r->lock_slots) {
      size_t slots = r->lock_slots ? 2 * r->lock_slots : 16;
      parallel_lock **locks = calloc(slots, sizeof *locks);
      if (!locks) {
        pthread_mutex_unlock(&r->lock);
        adcc_rt_report("out of memory for the locks of a reverse region");
        return NULL;
      }
      for (size_t k = 0; k < r->lock_slots; ++k)
        if (r->locks[k])
          locks[lock_slot(locks, slots, r->locks[k]->key)] = r->locks[k];
      free(r->locks);
      r->locks = locks;
      r->lock_slots = slots;
    }
    found = malloc(sizeof *found);
    if (!found) {
      pthread_mutex_unlock(&r->lock);
      adcc_rt_report("out of memory for the locks of a reverse region");
      return NULL;
    }
    found->key = key;
    pthread_mutex_init(&found->mutex, NULL);
    r->locks[lock_slot(r->locks, r->lock_slots, key)] = found;
    ++r->lock_count;
  }
  pthread_mutex_unlock(&r->lock);
  return found;
}

void adcc_parallel_lock(const void *key, unsigned level) {
  parallel_region *r = current(level);
  parallel_lock *l = r ? lock_for(r, key) : NULL;
  if (l)
    pthread_mutex_lock(&l->mutex);
}

void adcc_parallel_unlock(const void *key, unsigned level) {
  parallel_region *r = current(level);
  parallel_lock *l = r ? lock_for(r, key) : NULL;
  if (l)
    pthread_mutex_unlock(&l->mutex);
}
