// The check of the split forward-mode tests (after fwd_check.h, <string.h>
// and the file's `enum { N = 3 }` and `static const double X0[N]`): for
// each input direction of f at X0, the tangent of __enzyme_fwdsplit
// (after its __enzyme_augmentfwd) against the combined tangent of
// __enzyme_fwddiff, the reverse-mode gradient and central differences
// along that input.
#ifndef ADCC_E2E_FWD_SPLIT_CHECK_H
#define ADCC_E2E_FWD_SPLIT_CHECK_H

void *__enzyme_augmentfwd(void *, ...);
double __enzyme_fwdsplit(void *, ...);
double __enzyme_autodiff(void *, ...);

typedef double (*fn)(const double *);

static fn line_f;
static int line_i;
static double line(double t) {
  double x[N];
  memcpy(x, X0, sizeof x);
  x[line_i] += t;
  return line_f(x);
}

static void check(fn f) {
  double x[N], grad[N] = {0};
  memcpy(x, X0, sizeof x);
  __enzyme_autodiff((void *)f, enzyme_dup, x, grad);
  for (int i = 0; i < N; ++i) {
    double dx[N] = {0};
    dx[i] = 1;
    double one = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx);
    void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx);
    double split = __enzyme_fwdsplit((void *)f, enzyme_dup, x, dx, tape);
    line_f = f;
    line_i = i;
    CHECK_CLOSE(split, one, FWD_TOL_EXACT);
    CHECK_CLOSE(split, grad[i], FWD_TOL_EXACT);
    CHECK_CLOSE(split, fd_central(line, 0.0), FWD_TOL_FD);
  }
}

#endif
