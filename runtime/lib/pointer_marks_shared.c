/*===- pointer_marks_shared.c - One table of marks per request -----------===*
 *
 * The threads of an OpenMP region and the tasks of a request store
 * pointers and floats in the same bytes, in an order that the program's
 * synchronisation makes (a task's `depend` clauses, a barrier, a
 * `taskwait`, the region's end): a pointer that a sibling task or another
 * thread stored, then a float over it. So the marks of pointer shadows,
 * which a float's store puts back, are one table per request: the table of
 * the state of the thread that began it (the root), which its tasks' and
 * region threads' states (its members) mark and read under the root's
 * lock. What OpenMP orders (happens-before through a barrier, `depend`,
 * `taskwait`, the region's end) is the order in which the table is
 * changed, as the lock is taken in that order; stores that the program
 * does not order are a data race of the program's own.
 *
 * Each member keeps its records (the reverse of its pointer stores, on
 * whichever thread it runs) on a log of its own, and a table of its own
 * that links its records of a granule (pointer_marks.c). A float's store
 * over a marked granule may happen on another thread than the pointer's:
 * a thread's flag of live marks, which the generated code tests before it
 * calls the runtime, is set by the store that gives the root's table its
 * first mark, for the root's thread and every member's thread.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE

#include "pointer_marks_internal.h"

level_state *adcc_rt_marks_lock_root(level_state *L) {
  level_state *R = L->root;
  if (!R)
    return NULL;
  pthread_mutex_lock(&R->lock);
  if (R->request.active == began && R->request.generation == L->root_generation)
    return R;
  pthread_mutex_unlock(&R->lock);
  return NULL;
}

void adcc_rt_marks_join(level_state *member, level_state *creator) {
  if (!creator || member->root)
    return;
  level_state *R = creator->root;
  unsigned long generation = creator->root_generation;
  if (!R) {
    /* (The creator is a thread's own state: the root where it began the
       request that now runs.) */
    pthread_mutex_lock(&creator->lock);
    if (creator->request.active == began && creator->shared) {
      R = creator;
      generation = creator->request.generation;
    }
    pthread_mutex_unlock(&creator->lock);
    if (!R)
      return;
  }
  pthread_mutex_lock(&R->lock);
  member->root = R;
  member->root_generation = generation;
  member->next_member = R->members;
  R->members = member;
  pthread_mutex_unlock(&R->lock);
}

void adcc_rt_marks_leave_root(level_state *member) {
  level_state *R = member->root;
  if (!R)
    return;
  pthread_mutex_lock(&R->lock);
  for (level_state **link = &R->members; *link; link = &(*link)->next_member)
    if (*link == member) {
      *link = member->next_member;
      break;
    }
  member->root = NULL;
  pthread_mutex_unlock(&R->lock);
}

void adcc_rt_marks_running(level_state *L, int running) {
  level_state *R = L->root;
  if (!R)
    return;
  pthread_mutex_lock(&R->lock);
  L->live_flag = running ? &adcc_shadow_marks_live : NULL;
  pthread_mutex_unlock(&R->lock);
}

void adcc_rt_marks_appear(level_state *R) {
  if (R->live_flag)
    __atomic_store_n(R->live_flag, 1, __ATOMIC_RELAXED);
  for (level_state *m = R->members; m; m = m->next_member)
    if (m->live_flag)
      __atomic_store_n(m->live_flag, 1, __ATOMIC_RELAXED);
}
