// adfuzz version 29 seed 9, reduced: a pool of byte blocks linked through
// `void *` at their start, on f's stack, beside a local table of function
// pointers that a noinline callee fills. A false error from -O1: "a value
// with a derivative is stored into memory that has no shadow" at the
// double stored over a block's link; -O0 gives the exact 1 + 19x, and so
// does every level without the table of function pointers. (The table's
// call keeps LLVM from forwarding the pool's head: the block's address is
// a load from a pool that held only its own addresses, taken for
// constant.) Fixed on 2026-12-07 (analysis/SelfAddressLoads.cpp; e2e
// rev_self_linked_pool.c): every level gives 14.3.
//   adcc -O2 v29_pool_fnptr_table.c -lm && ./a.out   (want rev = fwd = 14.3)
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double h1(double a, double b) { return a * b; }
struct op {
  double (*fn)(double, double);
  double w;
};
__attribute__((noinline)) static void ops_register(struct op *t) {
  t[0].fn = h1;
  t[0].w = 0.5;
}
struct pool {
  void *head;
  _Alignas(16) unsigned char mem[4][32];
};
static void pool_init(struct pool *pl) {
  pl->head = 0;
  for (int i = 3; i >= 0; i--) {
    *(void **)pl->mem[i] = pl->head;
    pl->head = pl->mem[i];
  }
}
static void *take(struct pool *pl) {
  void *b = pl->head;
  pl->head = *(void **)b;
  return b;
}
static void give(struct pool *pl, void *b) {
  *(void **)b = pl->head;
  pl->head = b;
}
static double f(double x) {
  struct pool pl;
  pool_init(&pl);
  double v = x;
  {
    struct op ops[1];
    ops_register(ops);
    v = v + ops[0].w * ops[0].fn(v, x);  // x + x^2 / 2
  }
  void *b = take(&pl);
  double *d = (double *)b;
  d[0] = v;
  d[1] = 3 * x;
  double t = d[0] + d[1] * d[1];  // x + 9.5 x^2, d/dx = 1 + 19 x
  give(&pl, b);
  return t;
}
int main(void) {
  double x = 0.7;
  double dr = __enzyme_autodiff((void *)f, x);
  double df = __enzyme_fwddiff((void *)f, x, 1.0);
  printf("f %g rev %g fwd %g exact %g\n", f(x), dr, df, 1 + 19 * x);
  return 0;
}
