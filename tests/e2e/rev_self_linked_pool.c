// Issue 33, fuzzer version 29 (seeds 9 38 48 102 117 133 108): a pool of
// byte blocks linked through `void *` at their start, inlined into the
// differentiated function, its blocks' addresses read back from the pool.
// Where something keeps LLVM from forwarding the pool's head (a local table
// of function pointers, or of pointers to rows, that a noinline callee
// fills), the block's address is a load from the pool: from -O1 it was
// taken for a pointer without shadow and the double stored over the
// block's link gave "a value with a derivative is stored into memory that
// has no shadow" (analysis/SelfAddressLoads.cpp). Also the pool malloc'd,
// blocks given back and taken again (the derivative through the reused
// block), the table holding pointers into active memory, and a pool whose
// head may also point into an argument's memory (not linked to itself
// only). Reverse mode against forward mode, central differences and the
// exact derivative.
#include "check.h"

#include <stdlib.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
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
__attribute__((noinline)) static void copy_row(double **r) {
  r[1][1] = r[1][0];
}
// A table of pointers into memory with derivatives: the callee reads them.
__attribute__((noinline)) static double dot_rows(double **r) {
  return r[0][0] * r[1][0] + r[0][1] * r[1][1];
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

// x + 9.5 x^2 (the fuzzer's seed 9).
static double fn_table(double x) {
  struct pool pl;
  pool_init(&pl);
  double v = x;
  {
    struct op ops[1];
    ops_register(ops);
    v = v + ops[0].w * ops[0].fn(v, x); // x + x^2 / 2
  }
  void *b = take(&pl);
  double *d = (double *)b;
  d[0] = v;
  d[1] = 3 * x;
  double t = d[0] + d[1] * d[1];
  give(&pl, b);
  return t;
}
static double fn_table_exact(double x) { return 1 + 19 * x; }

// x + 9.5 x^2 (seed 108).
static double row_table(double x) {
  struct pool pl;
  pool_init(&pl);
  double v = x;
  {
    double rf[2][2], *rw[2];
    rw[0] = rf[1];
    rw[1] = rf[0];
    rw[0][0] = x;
    rw[1][0] = 0.5;
    copy_row(rw);
    v = v + rf[1][0] * rf[1][0] * rf[0][0]; // x + x^2 / 2
  }
  void *b = take(&pl);
  double *d = (double *)b;
  d[0] = v;
  d[1] = 3 * x;
  double t = d[0] + d[1] * d[1];
  give(&pl, b);
  return t;
}

// The table points into memory with derivatives; two blocks taken, given
// back and taken again: the second round reads what the first stored
// beside the link. Rows {x, x^2}, {2x, 1}: dot = 3x^2; c[1] = 4x^2, then
// t = 4x^3 + 4x^2, d/dx = 12x^2 + 8x.
static double active_rows(double x) {
  struct pool pl;
  pool_init(&pl);
  double rf[2][2], *rw[2];
  rw[0] = rf[0];
  rw[1] = rf[1];
  rf[0][0] = x;
  rf[0][1] = x * x;
  rf[1][0] = 2 * x;
  rf[1][1] = 1;
  double dot = dot_rows(rw);
  double *a = take(&pl), *c = take(&pl);
  a[0] = dot;
  c[0] = x * x;
  c[1] = a[0] + c[0];
  give(&pl, a);
  give(&pl, c);
  double *e = take(&pl); // c again
  double t = e[1] * x + e[1];
  give(&pl, e);
  return t;
}
static double active_rows_exact(double x) { return 12 * x * x + 8 * x; }

__attribute__((noinline)) static void put2(double *d, double a, double b) {
  d[0] = a;
  d[1] = b;
}
__attribute__((noinline)) static double get2(const double *d, double c) {
  return c * d[0] + d[1];
}

// Callees store into a block and read it (seeds 38 133: a function that
// only reads the block, or stores only numbers, keeps the pool linked to
// itself only): 0.5 (x + x^2 / 2) + 9 x^2, d/dx = 0.5 + 18.5 x.
static double callee_blocks(double x) {
  struct pool pl;
  pool_init(&pl);
  double v = x;
  {
    struct op ops[1];
    ops_register(ops);
    v = v + ops[0].w * ops[0].fn(v, x);
  }
  void *b = take(&pl);
  put2((double *)b, v, 3 * x);
  double t = get2((double *)b, 0.5);
  double *d = (double *)b;
  t += d[1] * d[1] - 3 * x;
  give(&pl, b);
  return t;
}
static double callee_blocks_exact(double x) { return 0.5 + 18.5 * x; }

// The pool malloc'd: x + 9.5 x^2.
static double heap_pool(double x) {
  struct pool *pl = malloc(sizeof *pl);
  pool_init(pl);
  double v = x;
  {
    struct op ops[1];
    ops_register(ops);
    v = v + ops[0].w * ops[0].fn(v, x);
  }
  void *b = take(pl);
  double *d = (double *)b;
  d[0] = v;
  d[1] = 3 * x;
  double t = d[0] + d[1] * d[1];
  give(pl, b);
  free(pl);
  return t;
}

// The head may point into the argument's memory (w, duplicated, when
// k > 0): the pool is not linked to itself only. w[0] x + 3x^2 stored in
// the head's block, d/dx = w[0] + 6x, d/dw[0] = x.
static double mixed_head(double x, double *w, int k) {
  struct pool pl;
  pool_init(&pl);
  struct op ops[1];
  ops_register(ops);
  if (k > 0)
    pl.head = w;
  double *b = pl.head;
  if (k <= 0)
    b[0] = w[0];
  b[1] = ops[0].fn(b[0], x) + 3 * x * x;
  return b[1];
}

typedef double (*unary)(double);

static void check_unary(const char *name, unary f, double (*exact)(double),
                        double x) {
  double dr = __enzyme_autodiff((void *)f, x);
  double df = __enzyme_fwddiff((void *)f, x, 1.0);
  double h = 1e-6;
  double fd = (f(x + h) - f(x - h)) / (2 * h);
  printf("%s: rev %.15g fwd %.15g fd %.15g exact %.15g\n", name, dr, df, fd,
         exact(x));
  CHECK_CLOSE(dr, exact(x), 1e-12);
  CHECK_CLOSE(df, exact(x), 1e-12);
  CHECK_CLOSE(fd, exact(x), 1e-6);
}

int main(void) {
  for (int r = 0; r < 2; ++r) {
    double x = 0.7 + 0.4 * r;
    check_unary("fn_table", fn_table, fn_table_exact, x);
    check_unary("row_table", row_table, fn_table_exact, x);
    check_unary("active_rows", active_rows, active_rows_exact, x);
    check_unary("heap_pool", heap_pool, fn_table_exact, x);
    check_unary("callee_blocks", callee_blocks, callee_blocks_exact, x);
    for (int k = 0; k < 2; ++k) {
      double w[2] = {1.3, 0.0}, dw[2] = {0.0, 0.0};
      double dx = __enzyme_autodiff((void *)mixed_head, x, enzyme_dup, w, dw,
                                    enzyme_const, k);
      double tw[2] = {1.3, 0.0}, tdw[2] = {0.0, 0.0};
      double fx = __enzyme_fwddiff((void *)mixed_head, x, 1.0, enzyme_dup,
                                   tw, tdw, enzyme_const, k);
      double h = 1e-6, wp[2] = {1.3, 0.0}, wm[2] = {1.3, 0.0};
      double fd = (mixed_head(x + h, wp, k) - mixed_head(x - h, wm, k)) /
                  (2 * h);
      printf("mixed_head k=%d: rev %.15g fwd %.15g fd %.15g dw0 %.15g\n", k,
             dx, fx, fd, dw[0]);
      CHECK_CLOSE(dx, 1.3 + 6 * x, 1e-12);
      CHECK_CLOSE(fx, 1.3 + 6 * x, 1e-12);
      CHECK_CLOSE(fd, 1.3 + 6 * x, 1e-6);
      CHECK_CLOSE(dw[0], x, 1e-12);
    }
  }
  return check_finish();
}
