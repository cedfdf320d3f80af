/*===- thread.c - Per-thread tapes ---------------------------------------===*
 *
 * A thread-local pointer makes adcc_tape_thread() one load on the fast path;
 * a pthread key, whose destructor runs when the thread exits, frees the tape
 * (C11 thread-locals have no destructors).
 *
 * A derivative of code that itself runs derivatives (reverse over reverse)
 * keeps its records on a tape of its own nesting level, apart from the
 * records of the sweeps it differentiates: adcc_tape_thread_level(k) is the
 * thread's tape of level k, level 0 being adcc_tape_thread()'s.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "tape_internal.h"

#include <pthread.h>

static _Thread_local adcc_tape *thread_tape;
static pthread_key_t thread_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int have_key;

static void destroy_thread_tape(void *tape) {
  /* Clear the pointer first: a later key destructor that pushes must get a
     fresh tape, not this freed one. */
  thread_tape = NULL;
  adcc_tape_destroy(tape);
}

static void make_key(void) {
  have_key = pthread_key_create(&thread_key, destroy_thread_tape) == 0;
}

static ADCC_NOINLINE adcc_tape *create_thread_tape(void) {
  pthread_once(&key_once, make_key);
  adcc_tape *t = adcc_tape_create();
  if (!t)
    return NULL;
  /* Without a key the tape lives until the process ends instead. */
  if (have_key)
    pthread_setspecific(thread_key, t);
  thread_tape = t;
  return t;
}

adcc_tape *adcc_tape_thread(void) {
  adcc_tape *t = thread_tape;
  if (ADCC_LIKELY(t))
    return t;
  return create_thread_tape();
}

static _Thread_local adcc_tape *level_tapes[ADCC_TAPE_LEVELS];
static pthread_key_t levels_key;
static pthread_once_t levels_once = PTHREAD_ONCE_INIT;
static int have_levels_key;

static void destroy_level_tapes(void *unused) {
  (void)unused;
  for (unsigned k = 1; k < ADCC_TAPE_LEVELS; ++k) {
    adcc_tape *t = level_tapes[k];
    level_tapes[k] = NULL;
    adcc_tape_destroy(t);
  }
}

static void make_levels_key(void) {
  have_levels_key =
      pthread_key_create(&levels_key, destroy_level_tapes) == 0;
}

static ADCC_NOINLINE adcc_tape *create_level_tape(unsigned level) {
  if (level >= ADCC_TAPE_LEVELS) {
    adcc_rt_report("tape level %u requested; derivatives nest at most %u "
                   "deep",
                   level, ADCC_TAPE_LEVELS - 1);
    return NULL;
  }
  pthread_once(&levels_once, make_levels_key);
  adcc_tape *t = adcc_tape_create();
  if (!t)
    return NULL;
  /* (The key's value only has to be non-null for its destructor to run.) */
  if (have_levels_key)
    pthread_setspecific(levels_key, level_tapes);
  level_tapes[level] = t;
  return t;
}

adcc_tape *adcc_tape_thread_level(unsigned level) {
  if (level == 0)
    return adcc_tape_thread();
  if (ADCC_LIKELY(level < ADCC_TAPE_LEVELS)) {
    adcc_tape *t = level_tapes[level];
    if (ADCC_LIKELY(t))
      return t;
  }
  return create_level_tape(level);
}

adcc_tape *adcc_rt_exchange_thread_tape(unsigned level, adcc_tape *tape) {
  adcc_tape **slot =
      level == 0 ? &thread_tape
                 : (level < ADCC_TAPE_LEVELS ? &level_tapes[level] : NULL);
  if (!slot) {
    adcc_rt_report("tape level %u requested; derivatives nest at most %u "
                   "deep",
                   level, ADCC_TAPE_LEVELS - 1);
    return NULL;
  }
  adcc_tape *old = *slot;
  *slot = tape;
  return old;
}

static int in_tape(const adcc_tape *t, uintptr_t p) {
  if (!t)
    return 0;
  for (const adcc_chunk *c = t->first; c; c = c->next)
    if (p >= (uintptr_t)adcc_chunk_data(c) && p < (uintptr_t)c->limit)
      return 1;
  return 0;
}

int adcc_rt_in_thread_tapes(const void *p) {
  uintptr_t a = (uintptr_t)p;
  if (in_tape(thread_tape, a))
    return 1;
  for (unsigned k = 1; k < ADCC_TAPE_LEVELS; ++k)
    if (in_tape(level_tapes[k], a))
      return 1;
  return 0;
}
