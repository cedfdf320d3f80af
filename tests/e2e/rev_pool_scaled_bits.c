// Issue 33, fuzzer version 29 (seeds 7 11 139 159): a double's bits given a
// new exponent (`u -= 1ULL << 52`, `u += 2ULL << 52`) and stored as an
// integer in memory a callee handed out (a pool's block), read back as a
// double, here and by a noinline callee. From -O1 the store kept the bits
// as an integer, where the rewrite of scaled float bits
// (prepare/ScaledFloatBits.cpp) could not follow them: "a floating-point
// value is made of another's significand bits, which also go where adcc
// cannot follow them". The store now stores the rewritten float. (-O0,
// where the bits go through local variables, is still the located error
// "copied as an integer": registered from -O1.) Reverse mode against
// forward mode, central differences and the exact derivative, for
// positive and negative values.
#include "check.h"

#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

union blk {
  union blk *next;
  unsigned long long bits[2];
};
struct pool {
  union blk *head;
  union blk blk[3];
};
__attribute__((noinline)) static union blk *take(struct pool *pl) {
  union blk *b = pl->head;
  pl->head = b->next;
  return b;
}
__attribute__((noinline)) static double read_bits(const union blk *b,
                                                  int i) {
  double t;
  memcpy(&t, &b->bits[i], sizeof t);
  return t;
}
static void init(struct pool *pl) {
  pl->blk[2].next = 0;
  pl->blk[1].next = &pl->blk[2];
  pl->blk[0].next = &pl->blk[1];
  pl->head = &pl->blk[0];
}

// (1.5 + x^2) / 2, d/dx = x (the fuzzer's seed 7, reduced).
static double halved(double x) {
  struct pool pl;
  init(&pl);
  union blk *b = take(&pl);
  double t = 1.5 + x * x;
  unsigned long long u;
  memcpy(&u, &t, sizeof u);
  u -= (unsigned long long)1 << 52;
  b->bits[0] = u;
  memcpy(&t, &b->bits[0], sizeof t);
  return t;
}
static double halved_exact(double x) { return x; }

// Two blocks: (x^3 - 4) * 4 stored in one, read here and by a callee; its
// half in the other; sum 10 (x^3 - 4), d/dx = 30 x^2 (negative values at
// x < 1.59).
static double two_blocks(double x) {
  struct pool pl;
  init(&pl);
  union blk *a = take(&pl), *c = take(&pl);
  double t = x * x * x - 4, r, s;
  unsigned long long u, v;
  memcpy(&u, &t, sizeof u);
  u += (unsigned long long)2 << 52;
  a->bits[1] = u;
  memcpy(&r, &a->bits[1], sizeof r);
  v = u - ((unsigned long long)1 << 52);
  c->bits[0] = v;
  memcpy(&s, &c->bits[0], sizeof s);
  return read_bits(a, 1) + r + s;
}
static double two_blocks_exact(double x) { return 30 * x * x; }

typedef double (*unary)(double);

static void check_unary(const char *name, unary f, double (*exact)(double),
                        double x) {
  double dr = __enzyme_autodiff((void *)f, x);
  double df = __enzyme_fwddiff((void *)f, x, 1.0);
  double h = 1e-6;
  double fd = (f(x + h) - f(x - h)) / (2 * h);
  printf("%s(%g): rev %.15g fwd %.15g fd %.15g exact %.15g\n", name, x, dr,
         df, fd, exact(x));
  CHECK_CLOSE(dr, exact(x), 1e-12);
  CHECK_CLOSE(df, exact(x), 1e-12);
  CHECK_CLOSE(fd, exact(x), 1e-6);
}

int main(void) {
  const double xs[] = {0.7, -1.3, 2.5};
  for (int i = 0; i < 3; ++i) {
    check_unary("halved", halved, halved_exact, xs[i]);
    check_unary("two_blocks", two_blocks, two_blocks_exact, xs[i]);
  }
  return check_finish();
}
