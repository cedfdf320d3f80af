/*===- null_shadows.c - Scratch shadows behind null shadow pointers -------===*
 *
 * A shadow struct the caller zeroes (`struct S ds = {0}`) leaves null
 * shadow pointers beside primal pointers to data (adcore's
 * NullableShadows.h). What a derivative call writes through such a pointer
 * and reads back must meet, as it does through a real shadow: within the
 * call (a session, entered and left around it), a null shadow read from
 * memory is replaced by the scratch shadow of its primal address, the same
 * for the same primal address wherever it is read (per lane of a batched
 * derivative). The scratch is a large
 * private anonymous mapping without backing (MAP_NORESERVE) around the
 * first primal address that needed one: untouched pages read as zero, the
 * derivative of data nobody gave a shadow. Later addresses within its
 * reach share it, so that pointer arithmetic on a scratch shadow follows
 * the primal's.
 *
 * Sessions: a thread's requests nested in one another (a request inside
 * differentiated code) share the outermost one's session, released when
 * it is left. Split mode: the augmented sweep's session is suspended when
 * it returns, kept with its tape handle, and resumed by the reverse sweep
 * given that handle, which releases it. Other threads (the workers of an
 * OpenMP region run by a derivative) have no session of their own: they
 * use the newest session open in the process. A derivative that throws
 * leaves its sessions open: the landing pad of the call that made the
 * request restores the level counted before it (adcc_null_shadows_level).
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct null_region {
  uintptr_t low, high; /* the primal addresses it covers: [low, high) */
  unsigned lane;       /* of a batched derivative: each has its own */
  char *base;          /* the shadow of `low` */
  struct null_region *next;
} null_region;

typedef struct null_session {
  null_region *regions;
  unsigned depth;            /* enters on its thread not yet left */
  const void *handle;        /* suspended: the tape handle it waits for */
  struct null_session *outer; /* the thread's session below it, or (while
                                 suspended) the next suspended one */
  struct null_session *newer, *older; /* the process's open sessions */
} null_session;

/* The thread's session, the suspended split sessions (newest first), and
   the count of enters and resumes not yet left or suspended. */
static _Thread_local null_session *current;
static _Thread_local null_session *suspended;
static _Thread_local unsigned level;

/* Open sessions of all threads, newest first; guards every region list. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static null_session *open_sessions;

/* Split mode's handle bit (error.c): a handle, or a tape buffer holding
   one. */
#define ADCC_HANDLE_TAG ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

enum {
  null_page = 4096,
  /* The largest and smallest reach on either side of the first address:
     the first is tried first, halved while the system refuses it. */
  null_max_log2 = 36,
  null_min_log2 = 24
};

static void open_session(null_session *s) {
  pthread_mutex_lock(&lock);
  s->older = open_sessions;
  s->newer = NULL;
  if (open_sessions)
    open_sessions->newer = s;
  open_sessions = s;
  pthread_mutex_unlock(&lock);
  s->outer = current;
  s->depth = 1;
  current = s;
}

/* Takes the thread's current session off the open ones. */
static null_session *close_session(void) {
  null_session *s = current;
  pthread_mutex_lock(&lock);
  if (s->newer)
    s->newer->older = s->older;
  else
    open_sessions = s->older;
  if (s->older)
    s->older->newer = s->newer;
  pthread_mutex_unlock(&lock);
  current = s->outer;
  s->newer = s->older = s->outer = NULL;
  return s;
}

static void release(null_session *s) {
  while (s->regions) {
    null_region *r = s->regions;
    s->regions = r->next;
    munmap(r->base, r->high - r->low);
    free(r);
  }
  free(s);
}

void adcc_null_shadows_enter(void) {
  ++level;
  if (current) {
    ++current->depth;
    return;
  }
  null_session *s = calloc(1, sizeof *s);
  if (!s) {
    --level;
    adcc_rt_report("out of memory for a null-shadow session");
    return;
  }
  open_session(s);
}

void adcc_null_shadows_leave(void) {
  if (level == 0 || !current) {
    adcc_rt_report("null-shadow session left without being entered");
    return;
  }
  --level;
  if (--current->depth > 0)
    return;
  release(close_session());
}

void adcc_null_shadows_suspend(const void *handle) {
  if (level == 0 || !current) {
    adcc_rt_report("null-shadow session suspended without being entered");
    return;
  }
  --level;
  /* (Nested in another request's session: the regions stay with it.) */
  if (--current->depth > 0)
    return;
  null_session *s = close_session();
  s->handle = handle;
  s->outer = suspended;
  suspended = s;
}

void adcc_null_shadows_resume(const void *tape) {
  uintptr_t h = (uintptr_t)tape;
  if (tape && !(h & ADCC_HANDLE_TAG))
    memcpy(&h, tape, sizeof h); /* a tape buffer holding the handle */
  for (null_session **p = &suspended; *p; p = &(*p)->outer) {
    null_session *s = *p;
    if ((uintptr_t)s->handle != h)
      continue;
    *p = s->outer;
    s->handle = NULL;
    ++level;
    open_session(s);
    return;
  }
  /* (None kept: the augmented sweep ran within another request's session,
     or needed none.) */
  adcc_null_shadows_enter();
}

unsigned adcc_null_shadows_level(void) { return level; }

void adcc_null_shadows_restore(unsigned target) {
  if (target == UINT_MAX)
    return;
  while (level > target && current)
    adcc_null_shadows_leave();
}

static null_region *reserve(null_session *s, uintptr_t primal,
                            unsigned lane) {
  null_region *r = malloc(sizeof *r);
  if (!r)
    return NULL;
  uintptr_t page = primal & ~(uintptr_t)(null_page - 1);
  for (int log2 = null_max_log2; log2 >= null_min_log2; --log2) {
    uintptr_t reach = (uintptr_t)1 << log2;
    uintptr_t low = page > reach ? page - reach : 0;
    uintptr_t high = page + reach + null_page;
    if (high < page) /* (wrapped) */
      high = UINTPTR_MAX & ~(uintptr_t)(null_page - 1);
    void *base = mmap(NULL, high - low, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
      continue;
    r->low = low;
    r->lane = lane;
    r->high = high;
    r->base = base;
    r->next = s->regions;
    s->regions = r;
    return r;
  }
  free(r);
  return NULL;
}

void *adcc_null_shadow(const void *primal, unsigned lane) {
  uintptr_t p = (uintptr_t)primal;
  if (p == 0)
    return NULL;
  pthread_mutex_lock(&lock);
  /* (Another thread than the request's: the newest open session.) */
  null_session *s = current ? current : open_sessions;
  if (!s) {
    pthread_mutex_unlock(&lock);
    return NULL;
  }
  /* (The oldest region that covers it: the same one every time.) */
  null_region *found = NULL;
  for (null_region *r = s->regions; r; r = r->next)
    if (r->lane == lane && p >= r->low && p < r->high)
      found = r;
  if (!found)
    found = reserve(s, p, lane);
  pthread_mutex_unlock(&lock);
  if (!found) {
    adcc_rt_report("cannot reserve address space for the scratch shadow "
                   "behind a null shadow pointer (primal %p)",
                   primal);
    return NULL;
  }
  return found->base + (p - found->low);
}

void *adcc_null_shadow_strip(void *shadow) {
  uintptr_t s = (uintptr_t)shadow;
  void *result = shadow;
  pthread_mutex_lock(&lock);
  for (null_session *o = open_sessions; o && result; o = o->older)
    for (null_region *r = o->regions; r; r = r->next)
      if (s >= (uintptr_t)r->base &&
          s < (uintptr_t)r->base + (r->high - r->low)) {
        result = NULL;
        break;
      }
  pthread_mutex_unlock(&lock);
  return result;
}
