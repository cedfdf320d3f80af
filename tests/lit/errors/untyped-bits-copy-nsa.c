// Without TBAA (-fno-strict-aliasing) every integer load and store is
// untyped. A double copied as 8 bytes by a helper that is not inlined,
// through a `void *` field, where the callers write the array through
// another pointer to the same memory (the field `v`): at -O1 and above the
// copy is an i64 load and store that nothing types but its addresses,
// indices into doubles. Until 2026-12-06 reverse mode lost the copied
// adjoint without a word (gradient 2 8 18 32 instead of 0 8 18 40); it is now
// reported at the copy, as with strict aliasing (untyped-bits-copy.c).
// An integer copy that says it is one (an index into ints of its width)
// is still differentiated: -DINTEGERS compiles.
// RUN: %expect-exit 1 %adcc -O1 -fno-strict-aliasing -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -fno-strict-aliasing -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O3 -fno-strict-aliasing -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O2 -fno-strict-aliasing -c -DINTEGERS %s -o /dev/null
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

struct cells {
  void *r;
  double *v; // the same array as r
  int *order;
};

#ifdef INTEGERS
// A swap of two ints in an array of them.
__attribute__((noinline)) void swap_order(struct cells *c, int i, int j) {
  int *o = (int *)c->r;
  int t;
  memcpy(&t, o + i, 4);
  memcpy(o + i, o + j, 4);
  memcpy(o + j, &t, 4);
}

static double f(struct cells *c, const double *x) {
  swap_order(c, 0, 3);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += c->order[i] * x[i] * x[i];
  return s;
}
#else
// CHECK: untyped-bits-copy-nsa.c:[[@LINE+2]]:3: error: cannot differentiate 'move_void' in reverse mode: a memory copy whose contents cannot be typed (8 or 4 bytes moved as an integer
__attribute__((noinline)) void move_void(struct cells *c, int to, int from) {
  memcpy((double *)c->r + to, (double *)c->r + from, 8);
}

static double f(struct cells *c, const double *x) {
  for (int i = 0; i < 4; ++i)
    c->v[i] = x[i] * x[i];
  move_void(c, 0, 3);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += (i + 1) * c->v[i];
  return s;
}
#endif

void gradient(struct cells *c, struct cells *dc, const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, c, dc, enzyme_dup, x, g);
}
