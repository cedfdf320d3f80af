/*===- adcc.h - adcc's user header --------------------------------*- C -*-===*
 *
 * Included by programs compiled with adcc; found without -I. It declares the
 * tape runtime (adcc_runtime.h) and, as the AD features land, the macros that
 * mark functions for differentiation. See docs/api.md.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_H
#define ADCC_H

#ifndef __ADCC__
#error "<adcc.h> is adcc's header: compile this file with adcc or adcc++"
#endif

#define ADCC_VERSION_MAJOR 0
#define ADCC_VERSION_MINOR 1
#define ADCC_VERSION_PATCH 0

#include "adcc_runtime.h"
#include "adcc_checkpoint.h"

/*===- Marking functions for differentiation ------------------------------===*
 *
 * Written before (or on) the declaration of a primal function f:
 *
 *   ADCC_FORWARD(d_f, Dual, Const, Dual) double f(const double *x, int n);
 *
 * declares the derivative d_f in f's scope; adcc generates its body from f's
 * definition. The first argument names the derivative, then come one
 * activity per parameter of f and one for its return value (none when f
 * returns void). Forward-mode activities: Const, Dual, DualOnly. Reverse
 * mode: Const, Active, Duplicated, DuplicatedOnly. The _BATCH forms take the batch width (an integer
 * constant) after the name. The signature rules are in docs/api.md.
 *
 * The activities are bare words here; the attribute receives them as one
 * string literal. Written without the macros, the same attribute reads
 *   __attribute__((adcc_forward(d_f, "Dual, Const, Dual")))
 *   [[adcc::forward(d_f, "Dual", "Const", "Dual")]]     (C++11, C23)
 *
 *===----------------------------------------------------------------------===*/
#define ADCC_FORWARD(name, ...)                                                \
  __attribute__((__adcc_forward__(name, #__VA_ARGS__)))
#define ADCC_FORWARD_BATCH(name, width, ...)                                   \
  __attribute__((__adcc_forward_batch__(name, width, #__VA_ARGS__)))
#define ADCC_REVERSE(name, ...)                                                \
  __attribute__((__adcc_reverse__(name, #__VA_ARGS__)))
#define ADCC_REVERSE_BATCH(name, width, ...)                                   \
  __attribute__((__adcc_reverse_batch__(name, width, #__VA_ARGS__)))

/*===- Custom derivatives and inactive functions --------------------------===*
 *
 * Written on the user's own derivative of a function f, naming f:
 *
 *   ADCC_FORWARD_RULE(f) double f_fwd(double x, double dx);
 *   ADCC_REVERSE_RULE(f, f_aug) double f_rev(double x, double d_result);
 *   ADCC_INACTIVE void log_value(double v);
 *
 * the same as Enzyme's __enzyme_register_derivative_*,
 * __enzyme_register_gradient_* and __enzyme_inactivefn_* registrations
 * (conventions in docs/custom-derivatives.md). f (and f_aug) must be
 * declared before.
 *
 *===----------------------------------------------------------------------===*/
#define ADCC_FORWARD_RULE(primal) __attribute__((__adcc_forward_rule__(primal)))
#define ADCC_REVERSE_RULE(primal, augmented)                                   \
  __attribute__((__adcc_reverse_rule__(primal, augmented)))
#define ADCC_INACTIVE __attribute__((__adcc_inactive__))

/*===- Checkpointed loops -------------------------------------------------===*
 *
 * Written before a `for` or `while` time loop in a function that is
 * differentiated:
 *
 *   ADCC_CHECKPOINT(8) for (int t = 0; t < steps; ++t) step(y, &p);
 *   ADCC_CHECKPOINT(8, ADCC_INTERVAL) for (...) ...
 *
 * the gradient keeps at most 8 copies (snapshots) of what the loop writes
 * and runs iterations again from them (docs/checkpointing.md). The same
 * attribute without the macro: [[adcc::checkpoint(8)]] (C++11, C23).
 *
 *===----------------------------------------------------------------------===*/
#define ADCC_CHECKPOINT(...) __attribute__((__adcc_checkpoint__(__VA_ARGS__)))

#endif /* ADCC_H */
