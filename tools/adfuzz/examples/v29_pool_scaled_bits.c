// adfuzz version 29 seed 7 (and 11), reduced: a double's bits given a new
// exponent and stored in memory a callee handed out (a pool's block), read
// back as a double. A false error: at -O0 "a floating-point value is copied
// as an integer ... not supported yet in reverse mode", from -O1 "a
// floating-point value is made of another's significand bits, which also go
// where adcc cannot follow them". Without the new exponent (the bits only
// stored and read back) all levels give the exact 2x. From -O1 fixed on
// 2026-12-07: a store of the bits that are also cast to the float stores
// the rewritten float (prepare/ScaledFloatBits.cpp; e2e
// rev_pool_scaled_bits.c); -O0, where the bits go through local
// variables, is still the "copied as an integer" error.
//   adcc -O2 v29_pool_scaled_bits.c -lm && ./a.out   (want rev = fwd = x)
#include <stdio.h>
#include <string.h>
extern int enzyme_dup, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

union blk {
  union blk *next;
  unsigned long long bits[2];
};
struct pool {
  union blk *head;
  union blk blk[2];
};
__attribute__((noinline)) static union blk *take(struct pool *pl) {
  union blk *b = pl->head;
  pl->head = b->next;
  return b;
}
static double f(double x) {
  struct pool pl;
  pl.blk[1].next = 0;
  pl.blk[0].next = &pl.blk[1];
  pl.head = &pl.blk[0];
  union blk *b = take(&pl);
  double t = 1.5 + x * x;
  unsigned long long u;
  memcpy(&u, &t, sizeof u);
  u -= (unsigned long long)1 << 52;
  b->bits[0] = u;
  memcpy(&t, &b->bits[0], sizeof t);
  return t;  // (1.5 + x^2) / 2, d/dx = x
}
int main(void) {
  double x = 0.7;
  double dr = __enzyme_autodiff((void *)f, x);
  double df = __enzyme_fwddiff((void *)f, x, 1.0);
  printf("f %g rev %g fwd %g exact %g\n", f(x), dr, df, x);
  return 0;
}
