/*===- adcc_checkpoint.h - Checkpointed time loops and fixed points -*- C -*-===*
 *
 * Long loops of a step function over a state, and iterations to a fixed
 * point, that reverse mode differentiates in bounded memory. Included by
 * <adcc.h>; see docs/checkpointing.md.
 *
 *   void step(double *state, const double *params);   (any pointee types)
 *   adcc_checkpointed_steps((void *)step, n, state, sizeof state, params,
 *                           sizeof *params, ADCC_REVOLVE, 8);
 *
 * runs `step(state, params)` n times. A gradient through the call records
 * one step at a time: it keeps at most `snapshots` copies of the state
 * (snapshots) and runs steps again from them in its reverse sweep, as the
 * schedule says. `params` is memory the steps only read: the gradient
 * copies its params_bytes bytes once (not in the snapshots), and what they
 * point to must keep its contents until the reverse sweep has run.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_CHECKPOINT_H
#define ADCC_CHECKPOINT_H

#include "adcc_runtime.h"

#ifdef __cplusplus
extern "C" {
#define ADCC_CKPT_NOTHROW noexcept
#else
#define ADCC_CKPT_NOTHROW
#endif

/* Schedules of adcc_checkpointed_steps. */
enum {
  /* Griewank's binomial checkpointing: the fewest step recomputations that
     `snapshots` copies of the state allow for n steps. */
  ADCC_REVOLVE = 0,
  /* A snapshot every ceil(n / snapshots) steps; the reverse sweep runs each
     interval again, records it whole and reverses it. */
  ADCC_INTERVAL = 1
};

/* Runs step(state, params) n times (n >= 0). step is a function
   `void (T *state, P *params)`; state is state_bytes bytes, all that one
   step passes to the next; params is params_bytes bytes that the steps
   only read (0: not copied, then they must stay unchanged until the
   reverse sweep); snapshots >= 1 (a constant below 1 is an error at
   compile time, a value below 1 at run time is reported through the error
   handler). */
ADCC_RT_API void adcc_checkpointed_steps(void *step, long n, void *state,
                                         size_t state_bytes, void *params,
                                         size_t params_bytes, int schedule,
                                         long snapshots) ADCC_CKPT_NOTHROW;

/* Runs `while (cond(state, params)) step(state, params);`, with cond a
   function `int (const T *state, const P *params)`, and returns nothing;
   the number of steps is known only when cond says stop. A gradient keeps
   at most `snapshots` states (an online schedule: snapshots taken at an
   interval that doubles whenever they are all used) and reverses the
   intervals between them with the binomial schedule. */
ADCC_RT_API void adcc_checkpointed_while(void *step, void *cond, void *state,
                                         size_t state_bytes, void *params,
                                         size_t params_bytes,
                                         long snapshots) ADCC_CKPT_NOTHROW;

/* Iterates state = g(state, params) until no value of the state changes by
   more than `tolerance` (max norm), at most max_iterations times; g is
   `void (double *state, P *params)` updating `count` doubles in place;
   params as for adcc_checkpointed_steps. Not
   converging is reported through the error handler. A gradient records
   only the converged state: its reverse sweep solves the adjoint fixed
   point  xb = ybar + xb * dg/dx  by iteration (same tolerance and limit;
   not converging is reported) and adds  xb * dg/dp  to the shadow of
   params. The adjoint of the initial guess is zero. */
ADCC_RT_API void adcc_fixed_point(void *g, double *state, size_t count,
                                  void *params, size_t params_bytes,
                                  double tolerance,
                                  long max_iterations) ADCC_CKPT_NOTHROW;

/*--- Statistics -------------------------------------------------------------*/

/* Counts of the calling thread, since the start or the last reset. */
typedef struct adcc_checkpoint_stats {
  size_t advances;       /* steps run without recording (primal only) */
  size_t recorded;       /* steps run by an augmented (recording) sweep */
  size_t reversed;       /* steps whose reverse sweep ran */
  size_t snapshots_peak; /* most snapshots held at once */
  size_t snapshot_bytes_peak;  /* most bytes of snapshots held at once */
  size_t recorded_live_peak;   /* most recorded steps awaiting reversal */
  size_t adjoint_iterations;   /* adjoint fixed-point iterations */
} adcc_checkpoint_stats;

ADCC_RT_API void adcc_checkpoint_get_stats(adcc_checkpoint_stats *stats);
ADCC_RT_API void adcc_checkpoint_reset_stats(void);

/* Griewank's minimal number of step advances for reversing n steps with s
   snapshots (the initial state included), which ADCC_REVOLVE attains:
   r * n - C(s + r, s + 1) with r the least integer such that
   C(s + r, s) >= n. */
ADCC_RT_API size_t adcc_revolve_advances(long n, long snapshots);

/*--- Called by derivative code that adcc generates ---------------------------*/

/* A global variable that the steps write: the snapshots hold its bytes
   next to the state's. shadow: its shadow global (floating-point data),
   or null; a step recorded again during the reverse sweep keeps the
   adjoints there (a recording zeroes the shadows of the globals it
   writes). */
typedef struct adcc_global_region {
  void *address;
  void *shadow;
  size_t bytes;
} adcc_global_region;

/* The derivatives of one step function, made by adcc for each call site:
   fwd: (state, d_state, params, d_params); aug: the same, returning the
   split-mode tape; rev: the same and the tape. The _const forms have no
   d_params (params without a shadow). The _tangent forms, for forward mode
   over the gradient (forward over reverse; null where not needed), are
   the forward derivatives of aug and rev: each of state, d_state, params,
   d_params followed by its tangent, then where aug_tangent stores the
   tape, or rev_tangent's tape. globals: the global variables the steps
   write (global_count of them). */
typedef struct adcc_step_fns {
  void *step;
  void *cond;
  void *fwd;
  void *fwd_const;
  void *aug;
  void *aug_const;
  void *rev;
  void *rev_const;
  void *aug_tangent;
  void *aug_const_tangent;
  void *rev_tangent;
  void *rev_const_tangent;
  const adcc_global_region *globals;
  size_t global_count;
} adcc_step_fns;

ADCC_RT_API void adcc_steps_tangent(const adcc_step_fns *fns, long n,
                                    void *state, void *d_state, void *params,
                                    void *d_params);
ADCC_RT_API void adcc_while_tangent(const adcc_step_fns *fns, void *state,
                                    void *d_state, void *params,
                                    void *d_params);
ADCC_RT_API void *adcc_steps_record(const adcc_step_fns *fns, long n,
                                    void *state, void *d_state,
                                    size_t state_bytes, void *params,
                                    void *d_params, size_t params_bytes,
                                    int schedule, long snapshots);
ADCC_RT_API void *adcc_while_record(const adcc_step_fns *fns, void *state,
                                    void *d_state, size_t state_bytes,
                                    void *params, void *d_params,
                                    size_t params_bytes, long snapshots);
ADCC_RT_API void adcc_steps_reverse(void *handle, void *d_state,
                                    void *d_params);
/* Forward mode over the two above (forward over reverse: a Hessian-vector
   product through the loop): each pointer followed by its tangent, null
   for none (then zeros; the parameters' need params_bytes). The snapshots
   hold the state's tangents next to its values. */
ADCC_RT_API void *
adcc_steps_record_tangent(const adcc_step_fns *fns, long n, void *state,
                          void *t_state, void *d_state, void *t_d_state,
                          size_t state_bytes, void *params, void *t_params,
                          void *d_params, void *t_d_params, size_t params_bytes,
                          int schedule, long snapshots);
ADCC_RT_API void *adcc_while_record_tangent(
    const adcc_step_fns *fns, void *state, void *t_state, void *d_state,
    void *t_d_state, size_t state_bytes, void *params, void *t_params,
    void *d_params, void *t_d_params, size_t params_bytes, long snapshots);
ADCC_RT_API void adcc_steps_reverse_tangent(void *handle, void *d_state,
                                            void *t_d_state, void *d_params,
                                            void *t_d_params);
ADCC_RT_API void adcc_fixed_point_tangent(const adcc_step_fns *fns,
                                         double *state, double *d_state,
                                         size_t count, void *params,
                                         void *d_params, double tolerance,
                                         long max_iterations);
ADCC_RT_API void *adcc_fixed_point_record(const adcc_step_fns *fns,
                                          double *state, size_t count,
                                          void *params, size_t params_bytes,
                                          double tolerance,
                                          long max_iterations);
ADCC_RT_API void adcc_fixed_point_reverse(void *handle, double *d_state,
                                          void *d_params);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ADCC_CHECKPOINT_H */
