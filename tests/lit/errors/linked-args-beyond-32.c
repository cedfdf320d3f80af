// A callee whose pointer argument 33 or later reaches a caller's link that
// it may store a number over (issue 33): DerivativeKey::LinkedArgs has bits
// for the first 32 pointer arguments only. An error at the call, never the
// link's shadow read as the number's adjoint; the same callee given the
// block among its first 32 arguments is differentiated.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc -O0 -DFIRST -c %s -o /dev/null
// RUN: %adcc -O2 -DFIRST -c %s -o /dev/null
float __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

struct obj {
  float v;
};
struct pool {
  void *any;
  struct obj *o[33];
};

#define P8(n) struct obj *n##0, struct obj *n##1, struct obj *n##2,           \
    struct obj *n##3, struct obj *n##4, struct obj *n##5, struct obj *n##6,   \
    struct obj *n##7
// (Not static: the optimizer keeps its unused arguments.)
__attribute__((noinline)) void
init_last(P8(a), P8(b), P8(c), P8(d), struct obj *last, float v) {
  a0->v = v;
  last->v = v;
}
#define A8(i) pl->o[i], pl->o[i + 1], pl->o[i + 2], pl->o[i + 3],            \
    pl->o[i + 4], pl->o[i + 5], pl->o[i + 6], pl->o[i + 7]
// (The other 32 arguments in the FIRST variant point into a local array:
// a `struct obj *` read from memory may reach a link too since
// 2026-12-07, a record of numbers being one that another file may convert
// a linked record's pointer to.)
#define L8(i) &loc[i], &loc[i + 1], &loc[i + 2], &loc[i + 3], &loc[i + 4],   \
    &loc[i + 5], &loc[i + 6], &loc[i + 7]
static float f(struct pool *pl, float x) {
#ifdef FIRST
  struct obj loc[33];
  init_last((struct obj *)pl->any, L8(1), L8(9), L8(17), L8(25), x * x);
#else
  // CHECK: linked-args-beyond-32.c:[[@LINE+1]]:{{[0-9]+}}: error: cannot differentiate 'f' in reverse mode: the callee may store a number over a link of the caller's memory that its pointer argument 33 or later reaches
  init_last(A8(0), A8(8), A8(16), A8(24), (struct obj *)pl->any, x * x);
#endif
  return 3 * pl->o[0]->v;
}
float df(struct pool *pl, struct pool *dpl, float x) {
  return __enzyme_autodiff((void *)f, enzyme_dup, pl, dpl, x);
}
// CHECK-NOT: Stack dump
