// A helper that returns a static scratch buffer or a new block
// (`n <= 8 ? scratch : malloc(...)`), called with constant arguments, whose
// result receives derivatives. Such a call stays constant (the callee's
// derivative could not give the static's shadow) and its result gets a
// scratch shadow where derivatives are stored into it. On 2026-12-07 a rule
// that made every call that may return a new block active (for KANN's
// kann_new_leaf_array, e2e rev_new_node_constant_args.c) crashed this
// gradient at -O2; the rule now leaves out helpers that may return a
// global's address. (At -O0 the store into the result is a located error,
// "memory that has no shadow", not registered here.) Reverse mode against
// the exact derivative and central differences, also with a helper that
// returns a block from another file's pool or a new one.
#include "check.h"

#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);

double pool[4];

__attribute__((noinline)) double *pool_or_new(long n) {
  return n == 0 ? pool : (double *)malloc(n * sizeof(double));
}
__attribute__((noinline)) double *scratch_or_new(long n) {
  static double scratch[8];
  return n <= 8 ? scratch : (double *)malloc(n * sizeof(double));
}

double f(double x) {
  double *o = pool_or_new(1); // holds no derivative
  o[0] = 1.0;
  double *s = scratch_or_new(2);
  s[0] = x * x;
  s[1] = s[0] * x + o[0];
  double r = s[1];
  free(o);
  return r;
}

int main(void) {
  double xs[] = {1.5, -0.75, 2.0};
  for (int i = 0; i < 3; ++i) {
    double x = xs[i];
    double d = __enzyme_autodiff((void *)f, x);
    CHECK_CLOSE(d, 3 * x * x, 1e-12);
    double h = 1e-6;
    CHECK_CLOSE(d, (f(x + h) - f(x - h)) / (2 * h), 1e-6);
  }
  return check_finish();
}
