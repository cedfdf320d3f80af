/*===- pointer_marks_internal.h - The marks' state, between its files ----===*
 *
 * pointer_marks.c keeps the marks of pointer shadows and the records of
 * their stores per thread and tape level; pointer_marks_workers.c hands a
 * request the records of the threads that worked for it (an OpenMP
 * region's workers, which have no request of their own);
 * pointer_marks_tasks.c gives OpenMP tasks and region threads states of
 * their own, and pointer_marks_shared.c makes them mark the table of
 * their request.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_RUNTIME_POINTER_MARKS_INTERNAL_H
#define ADCC_RUNTIME_POINTER_MARKS_INTERNAL_H

#include "tape_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

enum { latest = 1, on_stack = 2 };

typedef struct {
  uintptr_t granule;       /* 0: empty */
  unsigned char before[8]; /* what the marked bytes held before */
  uint32_t last;           /* the granule's latest record + 1; 0: none */
  uint8_t mask;  /* the bytes of the granule that hold a pointer's shadow */
  uint8_t flags; /* on_stack */
} mark;

/* A pointer's shadow stored: what its bytes that held no pointer's shadow
   (`starts`) held before. */
typedef struct {
  uintptr_t granule; /* 0: undone */
  unsigned char before[8];
  uint32_t prev; /* the granule's record before this one + 1; 0: none */
  uint8_t starts;
  uint8_t flags;      /* latest (of its granule), on_stack */
  uint8_t final_mask; /* of the latest: the bytes holding pointer shadows */
} record;

/* The pointer shadows of a granule when the augmented sweep ended. */
typedef struct {
  uintptr_t granule;
  unsigned char bytes[8];
  uint8_t mask;
  uint8_t on_stack;
} final;

typedef struct {
  uintptr_t first, end;
} block;

/* A final whose shadow bytes have shadows of an outer request's (reverse
   over reverse; pointer_marks_nested.c): those outer bytes when the
   request's augmented sweep ended, the outer shadow of the pointer's
   shadow. */
typedef struct {
  size_t final_index; /* of the request's final */
  uintptr_t outer;    /* the outer shadow of the granule's byte 0 */
  unsigned level;     /* the outer request's tape level */
  uint8_t mask;
  unsigned char bytes[8];
} outer_final;

enum { none = 0, began = 1, worker = 2 };

/* The request the thread began (or works for): its records and the shadow
   blocks it allocated. */
typedef struct {
  int active;                 /* none, began, worker */
  uintptr_t stack;            /* the caller's stack pointer: frames below
                                 are the request's (a worker: its stack) */
  uintptr_t stack_low;        /* a worker: the lowest byte of its stack */
  unsigned long generation;   /* began: the level's generation it began */
  record *log;
  size_t count, capacity;
  block *blocks;
  size_t block_count, block_capacity;
  final *finals;
  size_t final_count, final_capacity;
  outer_final *outers;
  size_t outer_count, outer_capacity;
} request_state;

typedef struct {
  mark *slots;
  size_t capacity; /* a power of two, or 0 */
  size_t used;     /* slots not empty (including cleared ones) */
  unsigned long generation;
} table;

/* Where a level's shadow bytes have shadows of an outer request's: the
   outer shadow of byte g + b is at g + b + delta. */
typedef struct {
  uintptr_t granule; /* 0: empty */
  intptr_t delta;
  unsigned level; /* the outer request's tape level */
} pair;

typedef struct {
  pair *slots;
  size_t capacity; /* a power of two, or 0 */
  size_t used;
} pair_table;

/* A request of the level put aside until the end of one begun after it. */
typedef struct waiting {
  table marks;
  request_state request;
  unsigned long worker_generation;
  struct waiting *next;
} waiting;

/* The thread's marks and records of one tape level. */
typedef struct level_state {
  table marks;
  request_state request;
  /* The pointer shadows the thread's last request of the level put back
     in its caller's memory (mask and before: the bytes it wrote). */
  table left;
  /* A nested request's: the outer shadows of its shadow bytes that hold
     pointer shadows, and the outer request's level + 1 while its end
     hands them over (0: none). An outer request's: the records that the
     ends of nested requests made in it, [start, end) of its log each, the
     last one's end open while it hands. pointer_marks_nested.c. */
  pair_table pairs;
  unsigned nest_level;
  size_t *batches;
  size_t batch_count, batch_capacity;
  int batch_open;
  waiting *waiting;
  unsigned long worker_generation; /* worker: the generation it works for */
  unsigned level;
  int enlisted; /* on the list of workers (pointer_marks_workers.c) */
  struct level_state *next_worker;
  /* An OpenMP task's state, while it runs: the thread's own, whose marks
     a number's store in the task also puts back (pointer_marks_tasks.c). */
  struct level_state *outer;
  /* An OpenMP task's state, in its augmented sweep: the state of the
     context that created it (a thread's, or another task's), whose marks
     a number's store in the task also puts back, and whether that state
     or one of its creators held marks when the task began. */
  struct level_state *creator;
  int creator_live;
  /* A task's or a parallel region thread's state: it records for the
     request that was running when it was made until it is freed, never
     stale (another thread's request may begin meanwhile). */
  int held;
  /* Set once a task was created from this state: its marks are then read
     and changed by other threads too, under `lock` (pointer_marks.c). */
  int shared;
  pthread_mutex_t lock;
  /* A task's or a region thread's state: the state of the thread that
     began the request it works for, whose table of marks all the
     request's threads and tasks share (under its lock), and that
     request's generation (the root is used while it still runs that
     request); null: none (it marks on its own table only). */
  struct level_state *root;
  unsigned long root_generation;
  /* A root: the states whose root it is (under its lock), the next one. */
  struct level_state *members, *next_member;
  /* The flag of live marks of the thread that runs the state (a root:
     while its request runs; a member: while it runs), which a store into
     the root's empty table sets (under the root's lock). */
  uint64_t *live_flag;
} level_state;

mark *adcc_rt_marks_find(const table *t, uintptr_t granule);
mark *adcc_rt_marks_insert(table *t, uintptr_t granule, uint8_t mask,
                           const unsigned char *before);
void adcc_rt_marks_sort_blocks(request_state *request);
int adcc_rt_marks_owned_by(const request_state *request, uintptr_t g);
/* The lowest and one past the highest byte of the thread's stack (zeros
   where unknown). */
void adcc_rt_thread_stack(uintptr_t *low, uintptr_t *high);
/* Puts a worker's state on the list of its level. */
void adcc_rt_marks_enlist(level_state *worker);
/* Takes a worker's state off the list of its level. */
void adcc_rt_marks_delist(level_state *worker);
/* A level_state allocated and zeroed, its lock ready (null: out of
   memory). */
level_state *adcc_rt_marks_new_state(unsigned level);
/* Takes `L`'s lock where tasks may read its marks (returns whether it did;
   unlock with that). */
int adcc_rt_marks_lock(level_state *L);
void adcc_rt_marks_unlock(level_state *L, int locked);
/* Whether the marks of `L` are live: not empty, not stale (under its
   lock where shared). */
int adcc_rt_marks_any(level_state *L);
/* The calling thread's state of the level (its slot, which a task's state
   takes while the task runs). */
level_state **adcc_rt_marks_slot(unsigned level);
/* The level's generation: the number of its requests begun so far. */
unsigned long adcc_rt_marks_generation(unsigned level);
/* Sets the thread's flag of live marks from its states. */
void adcc_rt_marks_refresh(void);
/* The root of a task's or region thread's state `L`, locked, where it
   still runs the request `L` works for (null: none). */
level_state *adcc_rt_marks_lock_root(level_state *L);
/* Makes `member` one of the states of the request whose marks `creator`
   uses (the creator's root, or the creator itself where it began that
   request). */
void adcc_rt_marks_join(level_state *member, level_state *creator);
/* Takes `member` off its root's list. */
void adcc_rt_marks_leave_root(level_state *member);
/* The root `R` (locked) got its first mark: the flags of live marks of
   its thread and of its members' threads are set. */
void adcc_rt_marks_appear(level_state *R);
/* Notes whether `L` runs on the calling thread (its flag of live marks
   set where the shared table gets marks). */
void adcc_rt_marks_running(level_state *L, int running);
/* The records of the request the calling thread runs or works for, of the
   level (it becomes a worker of a running request), or null where none
   runs. */
request_state *adcc_rt_marks_recording(unsigned level);
/* Keeps in `request` what a granule's bytes `mask` held when the
   augmented sweep ended (`at`), for its end to put back. */
void adcc_rt_marks_keep_final(request_state *request, uintptr_t granule,
                              uint8_t mask, const unsigned char *at,
                              int stack);
/* Records that `request` allocated the shadow block [first, first + bytes). */
void adcc_rt_marks_own_block(request_state *request, uintptr_t first,
                             uint64_t bytes);
/* At the end of the request `owner` of its thread, begun as the level's
   generation `generation`: the workers of that generation put back what
   their records' granules held when the augmented sweep ended, and stop
   working for it; records that the reverse sweep left are reported. */
void adcc_rt_marks_take_over(level_state *owner, unsigned long generation);
/* At the start and end of a request of `L`: no outer shadows known, no
   records of nested requests' ends. */
void adcc_rt_marks_forget_nested(level_state *L);
/* After `L`'s request kept a final of the granule g (`mask`): where the
   granule has an outer shadow, its bytes are kept with it. */
void adcc_rt_marks_keep_outer(level_state *L, uintptr_t g, uint8_t mask);
/* At the end of `L`'s request, which put back its final `index`: the
   outer shadows kept with it are stored back too, as pointer shadows the
   outer request stores (`next`: the first outer final not handed yet, 0
   before the first). */
void adcc_rt_marks_hand_outer(level_state *L, size_t index, size_t *next);
/* At the end of `L`'s request, once it handed its outer shadows over: the
   outer request's records of it are complete. */
void adcc_rt_marks_close_nest(level_state *L);

#endif
