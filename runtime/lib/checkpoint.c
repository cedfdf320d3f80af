/*===- checkpoint.c - Checkpointed time loops -----------------------------===*
 *
 * adcc_checkpointed_steps and adcc_checkpointed_while run a step function
 * over a state. Their gradients (adcc_steps_record, adcc_steps_reverse)
 * keep a few copies of the state (snapshots), run steps again from them,
 * and record one step (or one interval of steps) at a time with the step's
 * split-mode derivatives, which adcc generates for each call site.
 *
 * Words used below: an *advance* runs the primal step alone; *recording* a
 * step runs its augmented sweep (the step's records go on the thread's
 * tape); *reversing* it runs its reverse sweep, which pops them. Reverse
 * sweeps run in the reverse order of the recordings, as split mode asks.
 *
 *===----------------------------------------------------------------------===*/

#include "adcc_checkpoint.h"
#include "checkpoint_internal.h"
#include "tape_internal.h"

#include <stdlib.h>
#include <string.h>

/* (The schedule of adcc_checkpointed_while, internal.) */
#define ADCC_ONLINE 2

typedef void (*step_fn)(void *state, void *params);
typedef int (*cond_fn)(void *state, void *params);
typedef void (*fwd_fn)(void *state, void *d_state, void *params,
                       void *d_params);
typedef void (*fwd_const_fn)(void *state, void *d_state, void *params);
/* (Forward over reverse: the step's recording and reverse sweeps with
   tangents, adcc_step_fns' *_tangent.) */
typedef void (*aug_tangent_fn)(void *state, void *t_state, void *d_state,
                               void *t_d_state, void *params, void *t_params,
                               void *d_params, void *t_d_params, void **tape);
typedef void (*aug_const_tangent_fn)(void *state, void *t_state, void *d_state,
                                     void *t_d_state, void *params,
                                     void *t_params, void **tape);
typedef void (*rev_tangent_fn)(void *state, void *t_state, void *d_state,
                               void *t_d_state, void *params, void *t_params,
                               void *d_params, void *t_d_params, void *tape);
typedef void (*rev_const_tangent_fn)(void *state, void *t_state, void *d_state,
                                     void *t_d_state, void *params,
                                     void *t_params, void *tape);

/* A state the steps run on: its values and, in forward over reverse, their
   tangents (t; NULL otherwise). */
typedef struct state_ref {
  void *v, *t;
} state_ref;

static _Thread_local adcc_checkpoint_stats stats;

adcc_checkpoint_stats *adcc_rt_checkpoint_stats(void) { return &stats; }

void adcc_checkpoint_get_stats(adcc_checkpoint_stats *s) { *s = stats; }

void adcc_checkpoint_reset_stats(void) {
  memset(&stats, 0, sizeof stats);
}

void *adcc_rt_keep_params(void *params, size_t bytes) {
  if (!params || !bytes)
    return params;
  void *kept = malloc(bytes);
  if (!kept) {
    adcc_rt_report("out of memory for a copy of %zu bytes of parameters",
                   bytes);
    return NULL;
  }
  return memcpy(kept, params, bytes);
}

void adcc_rt_release_params(void *kept, void *params) {
  if (kept != params)
    free(kept);
}

/*--- Binomial schedule ------------------------------------------------------*/

/* C(s + r, s), saturated at SIZE_MAX. */
static size_t beta(long s, long r) {
  if (r < 0)
    return 0;
  size_t b = 1;
  for (long i = 1; i <= r; ++i) {
    /* b * (s + i) / i is exact: b is C(s + i - 1, i - 1). */
    size_t num = (size_t)(s + i);
    if (b > SIZE_MAX / num)
      return SIZE_MAX;
    b = b * num / (size_t)i;
  }
  return b;
}

/* The repetition number: the least r with C(s + r, s) >= n. */
static long repetitions(long n, long s) {
  long r = 0;
  while (beta(s, r) < (size_t)n)
    ++r;
  return r;
}

size_t adcc_revolve_advances(long n, long s) {
  if (n <= 1 || s < 1)
    return 0;
  if (s == 1)
    return (size_t)n * (size_t)(n - 1) / 2;
  long r = repetitions(n, s);
  return (size_t)r * (size_t)n - beta(s + 1, r - 1);
}

/* Where a binomial schedule over n > 1 steps with s > 1 snapshots takes its
   next snapshot: after j steps, j = min(C(s + r - 1, s), n - C(s + r - 2,
   s - 1)); then j + t(n - j, s - 1) + t(j, s) = t(n, s). */
static long revolve_split(long n, long s) {
  long r = repetitions(n, s);
  size_t a = beta(s, r - 1), b = (size_t)n - beta(s - 1, r - 1);
  return (long)(a < b ? a : b);
}

/*--- The checkpointing state of one gradient ---------------------------------*/

struct adcc_rt_steps {
  const adcc_step_fns *fns;
  /* params: what the steps read (a copy, or the program's own when
     user_params gave no size). */
  void *params, *user_params, *d_params, *d_state;
  /* bytes: the state's; a snapshot holds them (copies times: with their
     tangents in forward over reverse) and then global_bytes of the global
     variables the steps write (slot_bytes in all). */
  size_t bytes, copies, global_bytes, slot_bytes;
  long n, snapshots;
  int schedule;
  /* The snapshots: slot k holds the state before step at[k]. */
  unsigned char *slots;
  long *at;
  long used;
  /* The working copy of the state of the reverse sweep. */
  unsigned char *work;
  /* The reverse sweep has started; the globals' adjoints while a step is
     recorded again. */
  int reversing;
  unsigned char *adjoints;
  /* Recorded steps awaiting reversal: their tapes (an interval). */
  void **tapes;
  long live;
  /* The forward sweep's end: steps [spine_from, n) are left to reverse
     with spine_snapshots snapshots, the last of them already recorded
     (ADCC_REVOLVE), or the steps recorded at the end (ADCC_INTERVAL). */
  long spine_from, spine_snapshots;
  /* Forward over reverse (adcc_steps_record_tangent): the steps run with
     tangents, those of the parameters (a copy, as params), of the state's
     and the parameters' shadows. zeros: blocks standing for tangents the
     caller has none of. */
  int tangent;
  void *t_params, *t_user_params, *t_d_state, *t_d_params;
  void *zeros[4];
};

static void note_snapshots(adcc_rt_steps *c) {
  if ((size_t)c->used > stats.snapshots_peak)
    stats.snapshots_peak = (size_t)c->used;
  if ((size_t)c->used * c->slot_bytes > stats.snapshot_bytes_peak)
    stats.snapshot_bytes_peak = (size_t)c->used * c->slot_bytes;
}

static void *slot(adcc_rt_steps *c, long k) {
  return c->slots + (size_t)k * c->slot_bytes;
}

/* The written globals' bytes to `to` (to_globals) or from `from`. */
static void copy_globals(const adcc_rt_steps *c, unsigned char *buffer,
                         int to_globals) {
  for (size_t i = 0; i < c->fns->global_count; ++i) {
    const adcc_global_region *g = &c->fns->globals[i];
    if (to_globals)
      memcpy(g->address, buffer, g->bytes);
    else
      memcpy(buffer, g->address, g->bytes);
    buffer += g->bytes;
  }
}

static long take_snapshot(adcc_rt_steps *c, state_ref state, long step) {
  long k = c->used++;
  unsigned char *to = slot(c, k);
  memcpy(to, state.v, c->bytes);
  if (c->tangent)
    memcpy(to + c->bytes, state.t, c->bytes);
  copy_globals(c, to + c->copies * c->bytes, 0);
  c->at[k] = step;
  note_snapshots(c);
  return k;
}

static void advance(adcc_rt_steps *c, state_ref state, long count) {
  step_fn step = (step_fn)c->fns->step;
  fwd_fn fwd = (fwd_fn)c->fns->fwd;
  for (long i = 0; i < count; ++i)
    if (c->tangent)
      fwd(state.v, state.t, c->params, c->t_params);
    else
      step(state.v, c->params);
  stats.advances += (size_t)count;
}

/* The step's recording sweep with tangents (forward over reverse). */
static void *record_tangent(adcc_rt_steps *c, state_ref state) {
  void *tape = NULL;
  if (c->d_params)
    ((aug_tangent_fn)c->fns->aug_tangent)(state.v, state.t, c->d_state,
                                          c->t_d_state, c->params, c->t_params,
                                          c->d_params, c->t_d_params, &tape);
  else
    ((aug_const_tangent_fn)c->fns->aug_const_tangent)(
        state.v, state.t, c->d_state, c->t_d_state, c->params, c->t_params,
        &tape);
  return tape;
}

/* The shadows of the written globals to `buffer` or back. */
static void copy_shadows(const adcc_rt_steps *c, unsigned char *buffer,
                         int to_shadows) {
  for (size_t i = 0; i < c->fns->global_count; ++i) {
    const adcc_global_region *g = &c->fns->globals[i];
    if (!g->shadow)
      continue;
    if (to_shadows)
      memcpy(g->shadow, buffer, g->bytes);
    else
      memcpy(buffer, g->shadow, g->bytes);
    buffer += g->bytes;
  }
}

static void *record(adcc_rt_steps *c, state_ref state) {
  void *tape;
  if (c->reversing)
    copy_shadows(c, c->adjoints, 0);
  if (c->tangent)
    tape = record_tangent(c, state);
  else if (c->d_params)
    tape = ((void *(*)(void *, void *, void *, void *))c->fns->aug)(
        state.v, c->d_state, c->params, c->d_params);
  else
    tape = ((void *(*)(void *, void *, void *))c->fns->aug_const)(
        state.v, c->d_state, c->params);
  if (c->reversing)
    copy_shadows(c, c->adjoints, 1);
  ++stats.recorded;
  ++c->live;
  if ((size_t)c->live > stats.recorded_live_peak)
    stats.recorded_live_peak = (size_t)c->live;
  return tape;
}

static void reverse(adcc_rt_steps *c, state_ref state, void *tape) {
  if (c->tangent && c->d_params)
    ((rev_tangent_fn)c->fns->rev_tangent)(state.v, state.t, c->d_state,
                                          c->t_d_state, c->params, c->t_params,
                                          c->d_params, c->t_d_params, tape);
  else if (c->tangent)
    ((rev_const_tangent_fn)c->fns->rev_const_tangent)(
        state.v, state.t, c->d_state, c->t_d_state, c->params, c->t_params,
        tape);
  else if (c->d_params)
    ((void (*)(void *, void *, void *, void *, void *))c->fns->rev)(
        state.v, c->d_state, c->params, c->d_params, tape);
  else
    ((void (*)(void *, void *, void *, void *))c->fns->rev_const)(
        state.v, c->d_state, c->params, tape);
  ++stats.reversed;
  --c->live;
}

/* The working copy of the reverse sweep (its tangents after it). */
static state_ref work(const adcc_rt_steps *c) {
  state_ref w = {c->work, c->tangent ? c->work + c->bytes : NULL};
  return w;
}

/* Records and reverses the step that starts from the state in c->work. */
static void record_reverse(adcc_rt_steps *c) {
  void *tape = record(c, work(c));
  reverse(c, work(c), tape);
}

static void restore(adcc_rt_steps *c, long k) {
  memcpy(c->work, slot(c, k), c->copies * c->bytes);
  copy_globals(c, (unsigned char *)slot(c, k) + c->copies * c->bytes, 1);
}

/* Reverses steps [a, b) given the state before step a in slot k, with s
   snapshots (slot k's among them): Griewank's binomial schedule. */
static void revolve(adcc_rt_steps *c, long a, long b, long s, long k) {
  if (b - a == 1) {
    restore(c, k);
    record_reverse(c);
    return;
  }
  if (s == 1) {
    for (long i = b - 1; i >= a; --i) {
      restore(c, k);
      advance(c, work(c), i - a);
      record_reverse(c);
    }
    return;
  }
  long j = revolve_split(b - a, s);
  restore(c, k);
  advance(c, work(c), j);
  long m = take_snapshot(c, work(c), a + j);
  revolve(c, a + j, b, s - 1, m);
  --c->used;
  revolve(c, a, a + j, s, k);
}

/* Reverses an interval [a, b) from slot k by recording it whole. */
static void interval(adcc_rt_steps *c, long a, long b, long k) {
  restore(c, k);
  for (long i = a; i < b; ++i)
    c->tapes[i - a] = record(c, work(c));
  /* (The work state now holds step b's; the reverse sweeps read only
     their records.) */
  for (long i = b - 1; i >= a; --i)
    reverse(c, work(c), c->tapes[i - a]);
}

/*--- Allocation ---------------------------------------------------------------*/

static adcc_rt_steps *steps_new(const adcc_step_fns *fns, void *d_state,
                                size_t bytes, void *params, void *d_params,
                                size_t params_bytes, int schedule,
                                long snapshots) {
  adcc_rt_steps *c = calloc(1, sizeof *c);
  void *kept = c ? adcc_rt_keep_params(params, params_bytes) : NULL;
  if (!c || (params && !kept)) {
    free(c);
    adcc_rt_report("out of memory for a checkpointed loop's state");
    return NULL;
  }
  c->fns = fns;
  c->d_state = d_state;
  c->bytes = bytes;
  c->copies = 1;
  for (size_t i = 0; i < fns->global_count; ++i)
    c->global_bytes += fns->globals[i].bytes;
  c->slot_bytes = bytes + c->global_bytes;
  c->params = kept;
  c->user_params = params;
  c->d_params = d_params;
  c->schedule = schedule;
  c->snapshots = snapshots;
  return c;
}

/* `given`, or (stored in c->zeros[which] and returned) a zeroed block of
   `bytes` standing for a tangent the caller has none of; NULL after
   reporting. */
static void *tangent_or_zeros(adcc_rt_steps *c, void *given, int which,
                              size_t bytes, const char *what) {
  if (given)
    return given;
  if (!c->zeros[which] && !bytes) {
    adcc_rt_report("adcc_checkpointed_steps: forward over reverse needs the "
                   "size of the %s, which have no tangent here (pass "
                   "params_bytes)",
                   what);
    return NULL;
  }
  if (!c->zeros[which])
    c->zeros[which] = calloc(1, bytes);
  if (!c->zeros[which])
    adcc_rt_report("out of memory for %zu bytes of tangents", bytes);
  return c->zeros[which];
}

/* Makes c the forward-over-reverse sweeps' (c->tangent): a snapshot holds
   the state's tangents after its values; the tangents of the parameters
   are copied as the parameters are. 0 after reporting. */
static int steps_tangents(adcc_rt_steps *c, void *t_params, void *t_d_state,
                          void *t_d_params, size_t params_bytes) {
  c->tangent = 1;
  c->copies = 2;
  c->slot_bytes = 2 * c->bytes + c->global_bytes;
  c->t_d_state = tangent_or_zeros(c, t_d_state, 1, c->bytes, "state");
  if (c->user_params) {
    void *t = tangent_or_zeros(c, t_params, 2, params_bytes, "parameters");
    c->t_params = t ? adcc_rt_keep_params(t, params_bytes) : NULL;
    c->t_user_params = t;
  }
  if (c->d_params)
    c->t_d_params =
        tangent_or_zeros(c, t_d_params, 3, params_bytes, "parameters");
  return c->t_d_state && (c->t_params || !c->user_params) &&
         (c->t_d_params || !c->d_params);
}

static int steps_reserve(adcc_rt_steps *c, long slots, long tapes) {
  c->slots = malloc((size_t)slots * c->slot_bytes + 1);
  c->at = malloc((size_t)slots * sizeof *c->at);
  /* (The work state and its tangents, then room for the globals' values
     while the reverse sweep runs steps again.) */
  c->work = malloc(c->copies * c->bytes + c->global_bytes + 1);
  c->tapes = tapes ? malloc((size_t)tapes * sizeof *c->tapes) : NULL;
  c->adjoints = malloc(c->global_bytes + 1);
  if (c->slots && c->at && c->work && c->adjoints && (c->tapes || !tapes))
    return 1;
  adcc_rt_report("out of memory for %ld snapshots of %zu bytes", slots,
                 c->bytes);
  return 0;
}

static void steps_free(adcc_rt_steps *c) {
  if (!c)
    return;
  free(c->slots);
  free(c->at);
  free(c->work);
  free(c->tapes);
  free(c->adjoints);
  adcc_rt_release_params(c->params, c->user_params);
  if (c->t_params)
    adcc_rt_release_params(c->t_params, c->t_user_params);
  for (int i = 0; i < 4; ++i)
    free(c->zeros[i]);
  free(c);
}

static int valid_budget(const char *call, long snapshots) {
  if (snapshots >= 1)
    return 1;
  adcc_rt_report("%s: the number of snapshots must be at least 1 (got %ld)",
                 call, snapshots);
  return 0;
}

/*--- The primal calls ---------------------------------------------------------*/

void adcc_checkpointed_steps(void *step, long n, void *state,
                             size_t state_bytes, void *params,
                             size_t params_bytes, int schedule,
                             long snapshots) {
  (void)state_bytes;
  (void)params_bytes;
  (void)schedule;
  if (!valid_budget("adcc_checkpointed_steps", snapshots))
    return;
  for (long i = 0; i < n; ++i)
    ((step_fn)step)(state, params);
}

void adcc_checkpointed_while(void *step, void *cond, void *state,
                             size_t state_bytes, void *params,
                             size_t params_bytes, long snapshots) {
  (void)state_bytes;
  (void)params_bytes;
  if (!valid_budget("adcc_checkpointed_while", snapshots))
    return;
  while (((cond_fn)cond)(state, params))
    ((step_fn)step)(state, params);
}

/*--- Tangents -----------------------------------------------------------------*/

static void tangent_step(const adcc_step_fns *fns, void *state, void *d_state,
                         void *params, void *d_params) {
  if (!d_state)
    ((step_fn)fns->step)(state, params);
  else if (d_params)
    ((fwd_fn)fns->fwd)(state, d_state, params, d_params);
  else
    ((fwd_const_fn)fns->fwd_const)(state, d_state, params);
}

void adcc_steps_tangent(const adcc_step_fns *fns, long n, void *state,
                        void *d_state, void *params, void *d_params) {
  for (long i = 0; i < n; ++i)
    tangent_step(fns, state, d_state, params, d_params);
}

void adcc_while_tangent(const adcc_step_fns *fns, void *state, void *d_state,
                        void *params, void *d_params) {
  while (((cond_fn)fns->cond)(state, params))
    tangent_step(fns, state, d_state, params, d_params);
}

/*--- Recording: the forward sweep -------------------------------------------*/

static void *record_revolve(adcc_rt_steps *c, state_ref state) {
  long n = c->n, s = c->snapshots;
  if (!steps_reserve(c, s, 1))
    return c;
  long a = 0;
  take_snapshot(c, state, 0);
  while (n - a > 1 && s > 1) {
    long j = revolve_split(n - a, s);
    advance(c, state, j);
    a += j;
    take_snapshot(c, state, a);
    --s;
  }
  c->spine_from = a;
  c->spine_snapshots = s;
  /* s == 1: the last step is reversed first, from the last snapshot. */
  advance(c, state, n - 1 - a);
  c->tapes[0] = record(c, state);
  return c;
}

static void *record_interval(adcc_rt_steps *c, state_ref state) {
  long n = c->n, s = c->snapshots;
  long every = (n + s - 1) / s;
  long count = (n + every - 1) / every;
  if (!steps_reserve(c, count, every))
    return c;
  long last = (count - 1) * every;
  for (long a = 0; a < last; a += every) {
    take_snapshot(c, state, a);
    advance(c, state, every);
  }
  c->spine_from = last;
  for (long i = last; i < n; ++i)
    c->tapes[i - last] = record(c, state);
  return c;
}

static adcc_rt_steps *steps_begin(const adcc_step_fns *fns, void *d_state,
                                  size_t state_bytes, void *params,
                                  void *d_params, size_t params_bytes,
                                  int schedule, long snapshots) {
  if (!valid_budget("adcc_checkpointed_steps", snapshots))
    return NULL;
  if (schedule != ADCC_REVOLVE && schedule != ADCC_INTERVAL) {
    adcc_rt_report("adcc_checkpointed_steps: unknown schedule %d", schedule);
    return NULL;
  }
  return steps_new(fns, d_state, state_bytes, params, d_params, params_bytes,
                   schedule, snapshots);
}

static void *steps_run(adcc_rt_steps *c, long n, state_ref state) {
  c->n = n < 0 ? 0 : n;
  if (c->n == 0)
    return c;
  return c->schedule == ADCC_REVOLVE ? record_revolve(c, state)
                                     : record_interval(c, state);
}

void *adcc_steps_record(const adcc_step_fns *fns, long n, void *state,
                        void *d_state, size_t state_bytes, void *params,
                        void *d_params, size_t params_bytes, int schedule,
                        long snapshots) {
  adcc_rt_steps *c = steps_begin(fns, d_state, state_bytes, params, d_params,
                                 params_bytes, schedule, snapshots);
  state_ref s = {state, NULL};
  return c ? steps_run(c, n, s) : NULL;
}

/* c in forward over reverse, and the state with its tangents (zeros where
   the caller has none); NULL after reporting. */
static adcc_rt_steps *with_tangents(adcc_rt_steps *c, state_ref *state,
                                    void *t_params, void *t_d_state,
                                    void *t_d_params, size_t params_bytes) {
  if (!c)
    return NULL;
  if (steps_tangents(c, t_params, t_d_state, t_d_params, params_bytes) &&
      (state->t = tangent_or_zeros(c, state->t, 0, c->bytes, "state")))
    return c;
  steps_free(c);
  return NULL;
}

void *adcc_steps_record_tangent(const adcc_step_fns *fns, long n, void *state,
                                void *t_state, void *d_state, void *t_d_state,
                                size_t state_bytes, void *params,
                                void *t_params, void *d_params,
                                void *t_d_params, size_t params_bytes,
                                int schedule, long snapshots) {
  state_ref s = {state, t_state};
  adcc_rt_steps *c =
      with_tangents(steps_begin(fns, d_state, state_bytes, params, d_params,
                                params_bytes, schedule, snapshots),
                    &s, t_params, t_d_state, t_d_params, params_bytes);
  return c ? steps_run(c, n, s) : NULL;
}

/* The online schedule: the count is known at the end. Snapshots are taken
   every `every` steps; when all are used, every other one is dropped and
   the interval doubles. */
static void *record_online(adcc_rt_steps *c, state_ref state) {
  long s = c->snapshots, every = 1, i = 0;
  if (!steps_reserve(c, s, 1))
    return c;
  cond_fn cond = (cond_fn)c->fns->cond;
  while (cond(state.v, c->params)) {
    if (i % every == 0 && c->used == s) {
      long kept = 0;
      for (long k = 0; k < c->used; k += 2, ++kept) {
        memmove(slot(c, kept), slot(c, k), c->slot_bytes);
        c->at[kept] = c->at[k];
      }
      c->used = kept;
      every *= 2;
    }
    if (i % every == 0)
      take_snapshot(c, state, i);
    advance(c, state, 1);
    ++i;
  }
  c->n = i;
  return c;
}

void *adcc_while_record(const adcc_step_fns *fns, void *state, void *d_state,
                        size_t state_bytes, void *params, void *d_params,
                        size_t params_bytes, long snapshots) {
  if (!valid_budget("adcc_checkpointed_while", snapshots))
    return NULL;
  adcc_rt_steps *c = steps_new(fns, d_state, state_bytes, params, d_params,
                               params_bytes, ADCC_ONLINE, snapshots);
  state_ref s = {state, NULL};
  return c ? record_online(c, s) : NULL;
}

void *adcc_while_record_tangent(const adcc_step_fns *fns, void *state,
                                void *t_state, void *d_state, void *t_d_state,
                                size_t state_bytes, void *params,
                                void *t_params, void *d_params,
                                void *t_d_params, size_t params_bytes,
                                long snapshots) {
  if (!valid_budget("adcc_checkpointed_while", snapshots))
    return NULL;
  state_ref s = {state, t_state};
  adcc_rt_steps *c =
      with_tangents(steps_new(fns, d_state, state_bytes, params, d_params,
                              params_bytes, ADCC_ONLINE, snapshots),
                    &s, t_params, t_d_state, t_d_params, params_bytes);
  return c ? record_online(c, s) : NULL;
}

/*--- Reversal: the reverse sweep -------------------------------------------*/

static void reverse_revolve(adcc_rt_steps *c) {
  /* The last step, recorded by the forward sweep. */
  reverse(c, work(c), c->tapes[0]);
  long a = c->spine_from, k = c->used - 1;
  if (c->n - 1 > a) /* (s == 1 at the end of the spine) */
    revolve(c, a, c->n - 1, 1, k);
  /* Each interval of the spine, last first, with the snapshots left. */
  for (--k; k >= 0; --k) {
    long from = c->at[k], to = c->at[k + 1];
    c->used = k + 1;
    revolve(c, from, to, c->snapshots - k, k);
  }
}

static void reverse_interval(adcc_rt_steps *c) {
  for (long i = c->n - 1; i >= c->spine_from; --i)
    reverse(c, work(c), c->tapes[i - c->spine_from]);
  for (long k = c->used - 1; k >= 0; --k)
    interval(c, c->at[k], k + 1 < c->used ? c->at[k + 1] : c->spine_from, k);
  c->used = 0;
}

/* Each interval between the online snapshots, last first, with the
   snapshots left (revolve). */
static void reverse_online(adcc_rt_steps *c) {
  for (long k = c->used - 1; k >= 0; --k) {
    long from = c->at[k], to = k + 1 < c->used ? c->at[k + 1] : c->n;
    c->used = k + 1;
    revolve(c, from, to, c->snapshots - k, k);
  }
}

static void steps_reverse(adcc_rt_steps *c) {
  if (c->n > 0 && c->work && c->tapes) {
    /* The steps run again write the globals: the program's values are
       kept meanwhile. */
    unsigned char *kept = (unsigned char *)c->work + c->copies * c->bytes;
    copy_globals(c, kept, 0);
    c->reversing = 1;
    if (c->schedule == ADCC_REVOLVE)
      reverse_revolve(c);
    else if (c->schedule == ADCC_INTERVAL)
      reverse_interval(c);
    else
      reverse_online(c);
    copy_globals(c, kept, 1);
  }
  steps_free(c);
}

void adcc_steps_reverse(void *handle, void *d_state, void *d_params) {
  adcc_rt_steps *c = handle;
  if (!c)
    return;
  /* (The same shadows as the forward sweep's, passed again.) */
  c->d_state = d_state;
  c->d_params = d_params;
  steps_reverse(c);
}

void adcc_steps_reverse_tangent(void *handle, void *d_state, void *t_d_state,
                                void *d_params, void *t_d_params) {
  adcc_rt_steps *c = handle;
  if (!c)
    return;
  c->d_state = d_state;
  c->d_params = d_params;
  /* (Null tangents: the zeros the forward sweep stood in with.) */
  if (t_d_state)
    c->t_d_state = t_d_state;
  if (t_d_params)
    c->t_d_params = t_d_params;
  steps_reverse(c);
}
