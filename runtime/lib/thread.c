/*===- thread.c - Per-thread tapes ---------------------------------------===*
 *
 * A thread-local pointer makes adcc_tape_thread() one load on the fast path;
 * a pthread key, whose destructor runs when the thread exits, frees the tape
 * (C11 thread-locals have no destructors).
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
