// What does not compose yet with a checkpointed loop (docs/checkpointing.md):
// reverse over reverse through the loop, forward over reverse and batched
// gradients through a fixed point; errors, never wrong numbers. (Forward
// over reverse and batched gradients through adcc_checkpointed_steps work:
// e2e checkpoint_hvp.c, checkpoint_batched.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>

extern int enzyme_dup, enzyme_width;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

static void step(double *y, const double *p) { y[0] = y[0] * y[0] * p[0]; }

static double f(const double *y0, const double *p) {
  double y[1] = {y0[0]};
  adcc_checkpointed_steps((void *)step, 20, y, sizeof y, (void *)p, sizeof *p,
                          ADCC_REVOLVE, 3);
  return y[0];
}

static double grad(const double *y0, const double *p) {
  double dy[1] = {0}, dp[1] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, y0, dy, enzyme_dup, p, dp);
  return dp[0];
}

double hvp(const double *y0, const double *p, double *ty, double *tp) {
  return __enzyme_fwddiff((void *)grad, enzyme_dup, y0, ty, enzyme_dup, p,
                          tp);
}

void hessian_row(const double *y0, double *dy, const double *p, double *dp) {
  __enzyme_autodiff((void *)grad, enzyme_dup, y0, dy, enzyme_dup, p, dp);
}
// CHECK-DAG: checkpoint-nested.c:[[#@LINE-2]]:3: error: cannot differentiate 'adcc_checkpointed_steps(step).record' in reverse mode: a derivative of the derivative of adcc_checkpointed_steps other than forward mode over its gradient (reverse mode over a gradient or tangent through the loop, forward mode over a tangent, a third derivative) is not supported yet; differentiate the loop written without it

void batched(const double *y0, double *d0, double *d1, const double *p,
             double *q0, double *q1) {
  __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, y0, d0, d1,
                    enzyme_dup, p, q0, q1);
}

static void relax(double *z, const double *y) {
  z[0] = 0.5 * z[0] + 0.3 * y[0] * y[0];
}

static double solved(const double *y) {
  double z[1] = {0};
  adcc_fixed_point((void *)relax, z, 1, (void *)y, sizeof *y, 1e-15, 200);
  return z[0];
}
// CHECK-DAG: checkpoint-nested.c:[[#@LINE-3]]:3: error: cannot differentiate 'solved' in reverse mode: the registered gradient of 'adcc_fixed_point(relax)' has no batched (width > 1) form

void solved_batched(const double *y, double *d0, double *d1) {
  __enzyme_autodiff((void *)solved, enzyme_width, 2, enzyme_dup, y, d0, d1);
}

static double solved_grad(const double *y) {
  double dy[1] = {0};
  __enzyme_autodiff((void *)solved, enzyme_dup, y, dy);
  return dy[0];
}

double solved_hvp(const double *y, const double *v) {
  return __enzyme_fwddiff((void *)solved_grad, enzyme_dup, y, v);
}
// CHECK-DAG: checkpoint-nested.c:[[#@LINE-2]]:10: error: cannot differentiate 'adcc_fixed_point(relax).record' in forward mode: a derivative of the derivative of adcc_fixed_point (forward or reverse mode over a gradient or tangent through the loop) is not supported yet; differentiate the loop written without it
// (The Hessian-vector product and the batched gradient through
// adcc_checkpointed_steps are not among the errors.)
// CHECK: 3 errors generated.
