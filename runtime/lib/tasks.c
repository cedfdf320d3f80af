/*===- tasks.c - Tapes of OpenMP tasks reversed as tasks ------------------===*
 *
 * In the reverse sweep of an OpenMP region, each explicit task (without
 * dependences) runs again as a task: its augmented sweep records on a tape
 * of the task's own, and the reverse sweep spawns the task's reverse at
 * the mirror of the point that waited for it, then waits for it at the
 * mirror of its creation (docs/parallel.md#tasks). A task handle holds
 * that tape, copies of the task's record and of its shadow (the augmented
 * task and its reverse read them long after the creator's stack record is
 * reused), the function that runs its reverse, and the tasks it created
 * that no taskwait, taskgroup or barrier waited for inside it.
 *
 * What a sync point waits for: every context (a task, or a thread outside
 * any task of adcc's) keeps the tasks it created since its last sync
 * point; a sync point (taskwait, the end of a taskgroup, a barrier, the
 * end of a task or of a thread's part of a region) takes them as a batch,
 * which the augmented sweep records; the reverse sweep spawns the batch's
 * tasks, the last created first, at the sync point's mirror. A batch may
 * hold tasks that the primal waited for later (a task created before a
 * taskgroup, waited for by its end): their reverse then starts later than
 * it could, never too early. Only the thread that runs a context adds to
 * its list (a tied task runs on one thread at a time), so the lists need
 * no lock. The runtime does not call the OpenMP runtime: the generated
 * code allocates and starts the tasks.
 *
 * Tasks with depend clauses: the handle keeps a copy of the task's
 * kmp_depend_info entries, with which the generated code starts the
 * task's reverse. Reverses of a batch start the last created first, so the
 * same dependences order them in reverse: the reverse of a task that read
 * what another wrote (it adds into the adjoint the other's reverse reads)
 * comes before the other's, and of two writers the later first. Dependences
 * only order sibling tasks, and a batch's reverses are siblings.
 *
 *===----------------------------------------------------------------------===*/

#include "tape_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct task_batch {
  size_t count, capacity;
  struct adcc_task **tasks;
} task_batch;

typedef struct adcc_task {
  adcc_tape *tape;
  void (*reverse)(void *task);
  task_batch pending; /* created since the last sync point */
  task_batch *last;   /* pending at the task's end */
  void *deps;         /* its depend clauses' kmp_depend_info entries */
  int dep_count;
  adcc_tape *saved_tape;
  struct adcc_task *saved_context;
  void *marks, *saved_marks; /* pointer_marks_tasks.c */
  void *creator_marks;       /* the creating context's marks */
  unsigned marks_level; /* the level of the creator's derivative */
  unsigned level;
  _Alignas(16) unsigned char records[];
} adcc_task;

/* The task whose augmented sweep the thread runs, by level (null: none of
 * adcc's), and the tasks created outside any. */
static _Thread_local adcc_task *current_task[ADCC_TAPE_LEVELS];
static _Thread_local task_batch outside[ADCC_TAPE_LEVELS];

static task_batch *pending_of(unsigned level) {
  return current_task[level] ? &current_task[level]->pending : &outside[level];
}

static int append(task_batch *b, adcc_task *t) {
  if (b->count == b->capacity) {
    size_t capacity = b->capacity ? 2 * b->capacity : 8;
    adcc_task **tasks = realloc(b->tasks, capacity * sizeof *tasks);
    if (!tasks)
      return 0;
    b->tasks = tasks;
    b->capacity = capacity;
  }
  b->tasks[b->count++] = t;
  return 1;
}

/* The tasks of \p b as a batch of their own (null when there are none);
 * \p b is empty after. */
static task_batch *take(task_batch *b) {
  if (!b->count)
    return NULL;
  task_batch *taken = malloc(sizeof *taken);
  if (!taken) {
    adcc_rt_report("out of memory for the tasks of a sync point");
    return NULL;
  }
  *taken = *b;
  memset(b, 0, sizeof *b);
  return taken;
}

void *adcc_task_new(unsigned level, unsigned task_level, size_t record_bytes,
                    void (*reverse)(void *)) {
  if (level >= ADCC_TAPE_LEVELS || task_level >= ADCC_TAPE_LEVELS)
    return NULL;
  adcc_task *t = calloc(1, sizeof *t + record_bytes);
  adcc_tape *tape = t ? adcc_tape_create() : NULL;
  if (!t || !tape || !append(pending_of(level), t)) {
    if (tape)
      adcc_tape_destroy(tape);
    free(t);
    adcc_rt_report("out of memory for the tape of an OpenMP task");
    return NULL;
  }
  t->tape = tape;
  t->reverse = reverse;
  t->level = task_level;
  t->marks_level = level;
  t->creator_marks = adcc_rt_marks_task_creator(level);
  return t;
}

void *adcc_task_records(void *task) {
  return task ? ((adcc_task *)task)->records : NULL;
}

void adcc_task_copy_into(void *into, const void *record, const void *shadow,
                         size_t bytes, size_t shareds_bytes) {
  /* into: the record, its shadow, the shareds, their shadows; the copies'
   * shareds pointers (kmp_task_t's first field) are the copies'. */
  unsigned char *r = into, *d = r + bytes, *s = d + bytes,
                *ds = s + shareds_bytes;
  if (!into)
    return;
  memcpy(r, record, bytes);
  if (shadow)
    memcpy(d, shadow, bytes);
  if (bytes < sizeof(void *) || !shareds_bytes)
    return;
  void *from;
  memcpy(&from, record, sizeof from);
  if (from)
    memcpy(s, from, shareds_bytes);
  memcpy(r, &s, sizeof s);
  from = NULL;
  if (shadow)
    memcpy(&from, shadow, sizeof from);
  if (from)
    memcpy(ds, from, shareds_bytes);
  if (shadow)
    memcpy(d, &ds, sizeof ds);
}

void adcc_task_copy_record(void *task, const void *record,
                           const void *shadow, size_t bytes,
                           size_t shareds_bytes) {
  adcc_task *t = task;
  if (t)
    adcc_task_copy_into(t->records, record, shadow, bytes, shareds_bytes);
}

void adcc_task_copy_back(void *task, void *shadow, size_t bytes,
                         size_t from) {
  adcc_task *t = task;
  if (t && shadow && bytes > from)
    memcpy((unsigned char *)shadow + from, t->records + bytes + from,
           bytes - from);
}

/* kmp_depend_info: base address, length, flags (a word with padding). */
enum { DEP_BYTES = 3 * sizeof(void *) };

void adcc_task_set_deps(void *task, int count, const void *deps) {
  adcc_task *t = task;
  if (!t || count <= 0 || !deps)
    return;
  void *copy = malloc((size_t)count * DEP_BYTES);
  if (!copy) {
    adcc_rt_report("out of memory for the dependences of an OpenMP task");
    return;
  }
  memcpy(copy, deps, (size_t)count * DEP_BYTES);
  free(t->deps);
  t->deps = copy;
  t->dep_count = count;
}

int adcc_task_dep_count(void *task) {
  adcc_task *t = task;
  return t ? t->dep_count : 0;
}

void *adcc_task_deps(void *task) {
  adcc_task *t = task;
  return t ? t->deps : NULL;
}

void adcc_task_begin(void *task) {
  adcc_task *t = task;
  if (!t)
    return;
  t->saved_tape = adcc_rt_exchange_thread_tape(t->level, t->tape);
  t->saved_context = current_task[t->level];
  current_task[t->level] = t;
  t->saved_marks =
      adcc_rt_marks_task_enter(t->marks_level, &t->marks, t->creator_marks);
}

void adcc_task_end(void *task) {
  adcc_task *t = task;
  if (!t)
    return;
  t->last = take(&t->pending);
  adcc_rt_marks_task_leave(t->marks_level, t->marks, t->saved_marks);
  adcc_rt_exchange_thread_tape(t->level, t->saved_tape);
  current_task[t->level] = t->saved_context;
}

void adcc_task_begin_reverse(void *task) {
  adcc_task *t = task;
  if (!t)
    return;
  t->saved_tape = adcc_rt_exchange_thread_tape(t->level, t->tape);
  t->saved_marks = adcc_rt_marks_task_enter(t->marks_level, &t->marks, NULL);
}

void adcc_task_end_reverse(void *task) {
  adcc_task *t = task;
  if (!t)
    return;
  adcc_rt_marks_task_leave(t->marks_level, t->marks, t->saved_marks);
  adcc_rt_exchange_thread_tape(t->level, t->saved_tape);
}

void *adcc_task_sync(unsigned level) {
  return level < ADCC_TAPE_LEVELS ? take(pending_of(level)) : NULL;
}

void *adcc_task_last(void *task) {
  adcc_task *t = task;
  if (!t)
    return NULL;
  task_batch *last = t->last;
  t->last = NULL;
  return last;
}

void adcc_task_spawn(void *batch, void (*spawn)(void *task)) {
  task_batch *b = batch;
  if (!b)
    return;
  for (size_t k = b->count; k-- > 0;)
    spawn(b->tasks[k]);
  free(b->tasks);
  free(b);
}

void adcc_task_run_reverse(void *task) {
  adcc_task *t = task;
  if (t && t->reverse)
    t->reverse(t);
}

void adcc_task_free(void *task) {
  adcc_task *t = task;
  if (!t)
    return;
  adcc_tape_destroy(t->tape);
  adcc_rt_marks_task_free(t->marks_level, t->marks);
  free(t->deps);
  free(t->pending.tasks);
  if (t->last) {
    free(t->last->tasks);
    free(t->last);
  }
  free(t);
}
