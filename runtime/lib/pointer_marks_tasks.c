/*===- pointer_marks_tasks.c - Pointer stores of OpenMP tasks ------------===*
 *
 * An OpenMP task's augmented sweep runs on one thread and its reverse,
 * spawned at the mirror of the point that waited for it, maybe on another
 * (tasks.c). The records of its pointer stores, kept by the thread that
 * stored them, would not be found where the reverse undoes them: a float
 * with a derivative that the task stored before a pointer over it would
 * read the pointer's shadow as its adjoint. So a task marks and records on
 * a state of its own, which its augmented sweep and its reverse take as
 * the thread's state of their level while they run. Its marks go into
 * the table of its request, which the request's thread, its region
 * threads and all its tasks share (pointer_marks_shared.c): a pointer
 * that the task's creator or a sibling task stored, then a float that the
 * task stores over it on another thread. A number's store in the task
 * also puts back the marks of the thread's own state where they are not
 * the request's (made before the task, on the thread that runs it);
 * where the creating context has no request of the level, those of the
 * context that created it and of that context's creators. A state that
 * created a task is shared from then on: its owner and the tasks change
 * its marks under its lock. When the task is freed
 * (after its reverse, in its creator's reverse), the calling thread's
 * request, or the request it works for, takes what the task's granules
 * held when the augmented sweep ended and the shadow blocks the task
 * allocated, as it takes its own.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE

#include "pointer_marks_internal.h"

#include <stdlib.h>

void *adcc_rt_marks_task_creator(unsigned level) {
  if (level >= ADCC_TAPE_LEVELS)
    return NULL;
  level_state *creator = *adcc_rt_marks_slot(level);
  /* (A context without a state made no marks yet; those it makes after
     the task's creation race with the task's stores.) */
  if (creator && !creator->shared) {
    /* (Tasks read it from now on: its owner takes its lock too.) */
    pthread_mutex_lock(&creator->lock);
    creator->shared = 1;
    pthread_mutex_unlock(&creator->lock);
  }
  return creator;
}

void *adcc_rt_marks_task_enter(unsigned level, void **marks, void *creator) {
  if (level >= ADCC_TAPE_LEVELS || !marks)
    return NULL;
  level_state **slot = adcc_rt_marks_slot(level);
  level_state *task = *marks;
  if (!task) {
    task = adcc_rt_marks_new_state(level);
    if (!task) {
      adcc_rt_report("out of memory marking the shadows of pointers");
      return NULL;
    }
    /* (It records as a worker does, for the request now running; its
       frames are those of the thread that runs its augmented sweep.) */
    task->request.active = worker;
    task->held = 1;
    uintptr_t low, high;
    adcc_rt_thread_stack(&low, &high);
    task->request.stack_low = low;
    task->request.stack = high;
    task->worker_generation = task->marks.generation =
        adcc_rt_marks_generation(level);
    /* (It marks the table of the request its creator works for.) */
    adcc_rt_marks_join(task, creator);
    *marks = task;
  }
  /* (The augmented sweep: the creators' marks, made before the task was
     created, do not change the flag of live marks unless there are any.
     The reverse sweep stores no number over a pointer's shadow.) */
  task->creator = creator;
  task->creator_live = 0;
  for (level_state *c = creator; c && !task->creator_live; c = c->creator)
    task->creator_live = adcc_rt_marks_any(c);
  level_state *saved = *slot;
  task->outer = saved;
  *slot = task;
  adcc_rt_marks_running(task, 1);
  adcc_rt_marks_refresh();
  return saved;
}

void adcc_rt_marks_task_leave(unsigned level, void *marks, void *saved) {
  if (level >= ADCC_TAPE_LEVELS || !marks)
    return;
  level_state *task = marks;
  task->outer = NULL;
  adcc_rt_marks_running(task, 0);
  *adcc_rt_marks_slot(level) = saved;
  adcc_rt_marks_refresh();
}

void adcc_rt_marks_task_free(unsigned level, void *marks) {
  level_state *task = marks;
  if (!task || level >= ADCC_TAPE_LEVELS)
    return;
  request_state *r = &task->request;
  if (r->final_count || r->block_count) {
    request_state *into = adcc_rt_marks_recording(level);
    for (size_t i = 0; into && i < r->final_count; ++i)
      adcc_rt_marks_keep_final(into, r->finals[i].granule, r->finals[i].mask,
                               r->finals[i].bytes, r->finals[i].on_stack);
    for (size_t i = 0; into && i < r->block_count; ++i)
      adcc_rt_marks_own_block(into, r->blocks[i].first,
                              r->blocks[i].end - r->blocks[i].first);
  }
  /* (On the list of workers where it began again for a newer request.) */
  if (task->enlisted)
    adcc_rt_marks_delist(task);
  adcc_rt_marks_leave_root(task);
  pthread_mutex_destroy(&task->lock);
  free(task->marks.slots);
  free(task->left.slots);
  free(r->log);
  free(r->blocks);
  free(r->finals);
  free(r->outers);
  free(task->pairs.slots);
  free(task->batches);
  free(task);
}
