/*===- fixed_point.c - Fixed-point iterations and their adjoints ----------===*
 *
 * adcc_fixed_point iterates x = g(x, p) to convergence. Its gradient
 * records only the converged state x*: by the implicit function theorem,
 * the adjoint of p is  xb * dg/dp (x*)  where xb solves
 *   xb = ybar + xb * dg/dx (x*),
 * found by iterating that equation: each iteration records and reverses
 * one step g at x* (g's split-mode derivatives, without params' shadow),
 * and a last one with params' shadow adds xb * dg/dp into it. Tangents
 * iterate the tangent step at the converged point until the state and its
 * tangent both stop changing.
 *
 *===----------------------------------------------------------------------===*/

#include "adcc_checkpoint.h"
#include "checkpoint_internal.h"
#include "tape_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef void (*step_fn)(double *state, void *params);
typedef void (*fwd_fn)(double *state, double *d_state, void *params,
                       void *d_params);
typedef void (*fwd_const_fn)(double *state, double *d_state, void *params);
typedef void *(*aug_fn)(double *state, double *d_state, void *params,
                        void *d_params);
typedef void *(*aug_const_fn)(double *state, double *d_state, void *params);
typedef void (*rev_fn)(double *state, double *d_state, void *params,
                       void *d_params, void *tape);
typedef void (*rev_const_fn)(double *state, double *d_state, void *params,
                             void *tape);

/* The largest change between `now` and `before`, which is updated; NaN
   compares as not converged. */
static double change(const double *now, double *before, size_t count) {
  double most = 0;
  for (size_t i = 0; i < count; ++i) {
    double d = fabs(now[i] - before[i]);
    if (!(d <= most))
      most = d;
    before[i] = now[i];
  }
  return most;
}

static int check_arguments(double tolerance, long max_iterations) {
  if (tolerance >= 0 && max_iterations >= 1)
    return 1;
  adcc_rt_report("adcc_fixed_point: the tolerance must be at least 0 and "
                 "the iteration limit at least 1 (got %g and %ld)",
                 tolerance, max_iterations);
  return 0;
}

/* Iterates g from `state` until no value changes by more than tolerance;
   reports and returns 0 when max_iterations do not get there. */
static int iterate(step_fn g, double *state, double *before, size_t count,
                   void *params, double tolerance, long max_iterations) {
  memcpy(before, state, count * sizeof *state);
  for (long i = 0; i < max_iterations; ++i) {
    g(state, params);
    ++adcc_rt_checkpoint_stats()->advances;
    if (change(state, before, count) <= tolerance)
      return 1;
  }
  adcc_rt_report("adcc_fixed_point: the iteration did not converge to %g "
                 "in %ld iterations",
                 tolerance, max_iterations);
  return 0;
}

void adcc_fixed_point(void *g, double *state, size_t count, void *params,
                      size_t params_bytes, double tolerance,
                      long max_iterations) {
  (void)params_bytes;
  if (!check_arguments(tolerance, max_iterations))
    return;
  double *before = malloc(count * sizeof *before + 1);
  if (!before) {
    adcc_rt_report("adcc_fixed_point: out of memory");
    return;
  }
  iterate((step_fn)g, state, before, count, params, tolerance,
          max_iterations);
  free(before);
}

void adcc_fixed_point_tangent(const adcc_step_fns *fns, double *state,
                              double *d_state, size_t count, void *params,
                              void *d_params, double tolerance,
                              long max_iterations) {
  if (!d_state) {
    adcc_fixed_point(fns->step, state, count, params, 0, tolerance,
                     max_iterations);
    return;
  }
  if (!check_arguments(tolerance, max_iterations))
    return;
  double *before = malloc(2 * count * sizeof *before + 1);
  if (!before) {
    adcc_rt_report("adcc_fixed_point: out of memory");
    return;
  }
  double *d_before = before + count;
  memcpy(before, state, count * sizeof *state);
  memcpy(d_before, d_state, count * sizeof *state);
  long i = 0;
  for (; i < max_iterations; ++i) {
    if (d_params)
      ((fwd_fn)fns->fwd)(state, d_state, params, d_params);
    else
      ((fwd_const_fn)fns->fwd_const)(state, d_state, params);
    double moved = change(state, before, count);
    double d_moved = change(d_state, d_before, count);
    if (moved <= tolerance && d_moved <= tolerance)
      break;
  }
  if (i == max_iterations)
    adcc_rt_report("adcc_fixed_point: the tangent iteration did not "
                   "converge to %g in %ld iterations",
                   tolerance, max_iterations);
  free(before);
}

/* What the forward sweep keeps: x* and how to iterate. */
typedef struct fixed_point_record {
  const adcc_step_fns *fns;
  void *params, *user_params; /* (as in checkpoint.c) */
  size_t count;
  double tolerance;
  long max_iterations;
  double state[]; /* x*, then three work arrays of count values */
} fixed_point_record;

void *adcc_fixed_point_record(const adcc_step_fns *fns, double *state,
                              size_t count, void *params, size_t params_bytes,
                              double tolerance, long max_iterations) {
  if (!check_arguments(tolerance, max_iterations))
    return NULL;
  fixed_point_record *r = malloc(sizeof *r + 4 * count * sizeof(double));
  void *kept = r ? adcc_rt_keep_params(params, params_bytes) : NULL;
  if (!r || (params && !kept)) {
    free(r);
    adcc_rt_report("adcc_fixed_point: out of memory");
    return NULL;
  }
  r->fns = fns;
  r->params = kept;
  r->user_params = params;
  r->count = count;
  r->tolerance = tolerance;
  r->max_iterations = max_iterations;
  iterate((step_fn)fns->step, state, r->state + count, count, params,
          tolerance, max_iterations);
  memcpy(r->state, state, count * sizeof *state);
  return r;
}

/* d_state = d_state * dg/dx at x* (and d_params += d_state * dg/dp when
   d_params is given): one recorded and reversed step from x*. */
static void pull_back(fixed_point_record *r, double *work, double *d_state,
                      void *d_params) {
  adcc_checkpoint_stats *stats = adcc_rt_checkpoint_stats();
  memcpy(work, r->state, r->count * sizeof *work);
  if (d_params) {
    void *tape = ((aug_fn)r->fns->aug)(work, d_state, r->params, d_params);
    ((rev_fn)r->fns->rev)(work, d_state, r->params, d_params, tape);
  } else {
    void *tape = ((aug_const_fn)r->fns->aug_const)(work, d_state, r->params);
    ((rev_const_fn)r->fns->rev_const)(work, d_state, r->params, tape);
  }
  ++stats->recorded;
  ++stats->reversed;
}

void adcc_fixed_point_reverse(void *handle, double *d_state, void *d_params) {
  fixed_point_record *r = handle;
  if (!r)
    return;
  size_t n = r->count;
  double *work = r->state + n, *xb = work + n, *next = xb + n;
  /* ybar: the adjoint of the converged state, which d_state holds. */
  memcpy(xb, d_state, n * sizeof *xb);
  long i = 0;
  for (; i < r->max_iterations; ++i) {
    memcpy(next, xb, n * sizeof *next);
    pull_back(r, work, next, NULL);
    for (size_t k = 0; k < n; ++k)
      next[k] += d_state[k];
    ++adcc_rt_checkpoint_stats()->adjoint_iterations;
    if (change(next, xb, n) <= r->tolerance)
      break;
  }
  if (i == r->max_iterations)
    adcc_rt_report("adcc_fixed_point: the adjoint iteration did not "
                   "converge to %g in %ld iterations",
                   r->tolerance, r->max_iterations);
  /* p's adjoint: xb * dg/dp; the initial guess has none. */
  if (d_params)
    pull_back(r, work, xb, d_params);
  memset(d_state, 0, n * sizeof *d_state);
  adcc_rt_release_params(r->params, r->user_params);
  free(r);
}
