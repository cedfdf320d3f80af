// A double copied as bytes by a helper that is not inlined and is given the
// pointer itself (`move(c->r, to, from)` with `void *r`), indexed by bytes:
// the helper has no TBAA access of its own, with strict aliasing or
// without, and its copy (an integer load and store from -O1, a memcpy at
// -O0) says nothing of the bytes. Until 2026-12-06 reverse mode lost the
// copied adjoint at -O1..-O3 without a word, with or without
// -fno-strict-aliasing (gradient 2 8 18 32 instead of 0 0 30 40), whether
// the caller wrote the array through the same field (-DSAME) or another;
// through another it is now reported at the copy. (A helper indexing doubles,
// `(double *)r + to`, was reported already from -O1.) Where the caller
// writes the doubles through the same field (-DSAME), the callers' writes
// through that field type the helper's pointer (FieldPointees.cpp, since
// the merge of 2026-12-06): differentiated, gradient 0 0 30 40 at -O1..-O3
// with and without TBAA.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 0 %adcc -O2 -c -DSAME %s -o /dev/null
// RUN: %expect-exit 1 %adcc -O2 -fno-strict-aliasing -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 0 %adcc -O3 -fno-strict-aliasing -c -DSAME %s -o /dev/null
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

struct cells {
  int n;
  void *r;
  double *v; // the same array as r
};

// CHECK: untyped-bits-bytes-arg.c:[[@LINE+3]]:3: error: cannot differentiate 'move' in reverse mode: a memory copy whose contents cannot be typed
// CHECK-NOT: error:
__attribute__((noinline)) void move(void *r, int to, int from) {
  memcpy((char *)r + 8 * to, (char *)r + 8 * from, 8);
}

#ifdef SAME
#define AT(c, i) ((double *)(c)->r)[i]
#else
#define AT(c, i) (c)->v[i]
#endif

static double f(struct cells *c, const double *x) {
  for (int i = 0; i < 4; ++i)
    AT(c, i) = x[i] * x[i];
  move(c->r, 0, 3);
  move(c->r, 1, 2);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += (i + 1) * AT(c, i);
  return s;
}

void gradient(struct cells *c, struct cells *dc, const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, c, dc, enzyme_dup, x, g);
}
