/* numlib.c - least-squares loss and its gradient.
 *
 * nl_loss_grad is a reverse-mode derivative written by hand on top of adcc's
 * tape runtime (<adcc.h>, found without -I and linked automatically by
 * adcc): the forward sweep pushes every residual on the calling thread's
 * tape, the reverse sweep pops them in reverse order and accumulates the
 * adjoints. It is the pattern that adcc's generated derivatives follow. */
#include "numlib.h"

#include <adcc.h>

double nl_model(const double p[NL_PARAMS], double x) {
  return p[0] + x * (p[1] + x * p[2]);
}

double nl_loss(const double p[NL_PARAMS], const double *x, const double *y,
               size_t n) {
  double loss = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double r = nl_model(p, x[i]) - y[i];
    loss += 0.5 * r * r;
  }
  return loss;
}

double nl_loss_grad(const double p[NL_PARAMS], const double *x,
                    const double *y, size_t n, double grad[NL_PARAMS]) {
  adcc_tape *tape = adcc_tape_thread();
  adcc_tape_mark start = adcc_tape_get_mark(tape);

  /* Forward sweep: the primal loss; each residual r_i goes on the tape. */
  double loss = 0.0;
  for (size_t i = 0; i < n; ++i) {
    double r = nl_model(p, x[i]) - y[i];
    adcc_tape_push_f64(tape, r);
    loss += 0.5 * r * r;
  }

  /* Reverse sweep: the adjoint of r_i is r_i (seed 1), and
   * d r_i / d p_k = x_i^k. */
  for (int k = 0; k < NL_PARAMS; ++k)
    grad[k] = 0.0;
  for (size_t i = n; i-- > 0;) {
    double r = adcc_tape_pop_f64(tape);
    grad[0] += r;
    grad[1] += r * x[i];
    grad[2] += r * x[i] * x[i];
  }

  /* Nothing of ours may stay on the tape, even if a pop was mismatched. */
  adcc_tape_release(tape, start);
  return loss;
}
