// Not yet through a loop marked ADCC_CHECKPOINT either (as through the
// calls, checkpoint-nested.c): reverse over reverse, an error at the request
// that differentiates the gradient; never wrong numbers. (Forward over
// reverse and batched gradients work: e2e checkpoint_hvp.c,
// checkpoint_batched.c.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
#include <adcc.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
extern double __enzyme_autodiff(void *, ...);
extern void __enzyme_fwddiff(void *, ...);

static double f(const double *x, int n) {
  double y[2] = {x[0], x[1]};
  ADCC_CHECKPOINT(2) for (int i = 0; i < n; ++i) {
    double t = y[0];
    y[0] = y[0] * y[1];
    y[1] = t + 0.5 * y[1];
  }
  return y[0] * y[1];
}

static void grad(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}

void hvp(const double *x, const double *v, double *dx, double *hv, int n) {
  __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, dx, hv,
                   enzyme_const, n);
}

void hessian_row(const double *x, double *dx, double *w, double *hw, int n) {
  __enzyme_autodiff((void *)grad, enzyme_dup, x, hw, enzyme_dup, dx, w,
                    enzyme_const, n);
}
// CHECK: checkpoint-loop-nested.c:[[#@LINE-3]]:3: error: cannot differentiate 'adcc_checkpointed_steps(loop(f:16)).record' in reverse mode: a derivative of the derivative of adcc_checkpointed_steps other than forward mode over its gradient

void batched(const double *x, double *d0, double *d1, int n) {
  __enzyme_autodiff((void *)f, enzyme_width, 2, enzyme_dup, x, d0, d1,
                    enzyme_const, n);
}
// (The Hessian-vector product and the batched gradient are not among the
// errors.)
// CHECK: 1 error generated.
