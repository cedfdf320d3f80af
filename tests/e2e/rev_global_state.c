/* State a file keeps in static globals between calls of a differentiated
 * function, with gradients, forward derivatives and gradients again in
 * turn (the order matters: each derivative call used to find in the
 * shadow of a global what the call before it left there):
 *  - a table of constants filled on the first call (a lazily initialized
 *    cache): it had a shadow, where the gradient's adjoints of its reads
 *    collected and a later forward derivative read them as tangents;
 *  - the previous argument kept for the next call (`r = x - prev; prev =
 *    x`): the gradient left the adjoint of prev's read in its shadow, a
 *    forward derivative after it read that as prev's tangent, and a
 *    forward derivative after another took the earlier direction's.
 * A global's value from before a call is a constant to that call's
 * derivative, whether the global is static or other files see it. Exact
 * values, at -O0 to -O3. */
#include "rev_check.h"

static int table_ready;
static double table[8];
static const double *coefficients(void) {
  if (!table_ready) {
    for (int k = 0; k < 8; ++k)
      table[k] = cos((2 * k + 1) * M_PI / 16) / (k + 1);
    table_ready = 1;
  }
  return table;
}
/* p(t) = sum_k c_k t^k with t = tanh(s x0), times x1 */
static int order = 6;
static double cached(const double *x) {
  const double *c = coefficients();
  double t = tanh(x[0] * 0.7), p = 0;
  for (int k = order - 1; k >= 0; --k)
    p = p * t + c[k];
  return p * x[1];
}
static void cached_exact(const double *x, double *g) {
  const double *c = coefficients();
  double t = tanh(x[0] * 0.7), p = 0, dp = 0;
  for (int k = order - 1; k >= 0; --k) {
    dp = dp * t + p;
    p = p * t + c[k];
  }
  g[0] = dp * (1 - t * t) * 0.7 * x[1];
  g[1] = p;
}

static double prev;
static double stateful(const double *x) {
  double r = x[0] - prev;
  prev = x[0];
  return r * r * x[1];
}

/* The same in a global other files see: its shadow (prev_visible_shadow)
 * is adcc's to zero too, no file naming it (until 2026-12-06 it kept the
 * leftovers: 20 instead of 4). */
double prev_visible;
static double stateful_visible(const double *x) {
  double r = x[0] - prev_visible;
  prev_visible = x[0];
  return r * r * x[1];
}

static void check_cached(const double *x) {
  double g[2] = {0}, want[2];
  cached_exact(x, want);
  __enzyme_autodiff((void *)cached, enzyme_dup, x, g);
  CHECK_CLOSE(g[0], want[0], REV_TOL_EXACT);
  CHECK_CLOSE(g[1], want[1], REV_TOL_EXACT);
  for (int i = 0; i < 2; ++i) {
    double t[2] = {0, 0};
    t[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)cached, enzyme_dup, x, t), want[i],
                REV_TOL_EXACT);
  }
  /* and a gradient after the forward derivatives */
  g[0] = g[1] = 0;
  __enzyme_autodiff((void *)cached, enzyme_dup, x, g);
  CHECK_CLOSE(g[0], want[0], REV_TOL_EXACT);
}

/* d/dx0 = 2 (x0 - prev) x1, d/dx1 = (x0 - prev)^2, prev as the call
 * finds it */
#define CHECK_STATEFUL(f, prev, x0, x1)                                        \
  do {                                                                         \
    double x[2] = {(x0), (x1)}, g[2] = {0}, p = prev;                          \
    double want0 = 2 * (x[0] - p) * x[1], want1 = (x[0] - p) * (x[0] - p);     \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g);                            \
    CHECK_CLOSE(g[0], want0, REV_TOL_EXACT);                                   \
    CHECK_CLOSE(g[1], want1, REV_TOL_EXACT);                                   \
    prev = p;                                                                  \
    double t0[2] = {1, 0}, t1[2] = {0, 1};                                     \
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, t0), want0,         \
                REV_TOL_EXACT);                                                \
    prev = p;                                                                  \
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, t1), want1,         \
                REV_TOL_EXACT);                                                \
    CHECK_CLOSE(prev, x[0], 0);                                                \
  } while (0)

int main(void) {
  double a[2] = {0.35, 1.2}, b[2] = {-0.5, 0.6};
  check_cached(a);
  order = 7;
  check_cached(b);
  check_cached(a);
  for (int round = 0; round < 3; ++round)
    CHECK_STATEFUL(stateful, prev, 1.0 + round, 2.0 - 0.5 * round);
  for (int round = 0; round < 3; ++round)
    CHECK_STATEFUL(stateful_visible, prev_visible, 1.0 + round,
                   2.0 - 0.5 * round);
  return check_finish();
}
