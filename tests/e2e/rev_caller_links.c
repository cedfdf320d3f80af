// Issue 33, memory whose pointer the caller stored before the call: a pool
// of two blocks whose free list main sets up, and its shadow pool alike.
// The call takes a block, stores a float with a derivative over its link
// (a union) and gives it back. The link's shadow, stored by main, was
// never marked: the augmented sweep marks it where `take` reads the link,
// so that the float's store puts back zero and its reverse does not read
// the link's shadow as its adjoint (docs/reverse-mode.md, "Shadows of
// memory reused"). The shadow pool lies on a page at an address whose low
// 32 bits, read as a float, are 2^23 or more: before the fix the first
// call gave 33555564 for 12. Also a caller's seed over the same kind of
// memory, which stays. Reverse mode against forward mode, central
// differences and the exact derivative, on the first call and over
// repeated ones.
#include "check.h"
#include "large_bits_page.h"

#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

struct block {
  union {
    float value;
    struct block *next;
  };
  float w;
};
struct pool {
  struct block *head;
  struct block blocks[2];
};

static void set_up(struct pool *pl) {
  pl->blocks[0].next = &pl->blocks[1];
  pl->blocks[1].next = NULL;
  pl->head = &pl->blocks[0];
}

__attribute__((noinline)) static struct block *take(struct pool *pl) {
  struct block *b = pl->head;
  pl->head = b->next;
  return b;
}
__attribute__((noinline)) static void give(struct pool *pl, struct block *b) {
  b->next = pl->head;
  pl->head = b;
}

// r = 3 x^2, dr/dx = 6x.
static float use_block(struct pool *pl, float *p) {
  struct block *b = take(pl);
  b->value = p[0] * p[0];
  float r = 3 * b->value;
  give(pl, b);
  return r;
}

// Two blocks, the second's value read after the first's link is back:
// r = 2 x^2 + x^3, dr/dx = 4x + 3x^2.
static float use_two(struct pool *pl, float *p) {
  struct block *a = take(pl);
  struct block *b = take(pl);
  a->value = 2 * p[0];
  b->value = p[0] * p[0];
  float r = a->value * p[0];
  give(pl, a);
  r += b->value * p[0];
  give(pl, b);
  return r;
}

// An output block whose value the caller seeds (its primal a number, not
// an address): out->value = x^2 keeps the seed, dx = 2x.
static void square_into(struct block *out, const float *p) {
  out->value = p[0] * p[0];
}

static float central(float (*f)(struct pool *, float *), float *p) {
  struct pool pl;
  float keep = p[0], h = 1e-2f;
  set_up(&pl);
  p[0] = keep + h;
  double up = f(&pl, p);
  set_up(&pl);
  p[0] = keep - h;
  double down = f(&pl, p);
  p[0] = keep;
  return (float)((up - down) / (2 * h));
}

static void check(float (*f)(struct pool *, float *), float *p,
                  struct pool *dpl, double exact) {
  struct pool pl, fpl, tpl;
  set_up(&fpl);
  memset(&tpl, 0, sizeof tpl);
  tpl.blocks[0].next = &tpl.blocks[1];
  tpl.head = &tpl.blocks[0];
  float t[1] = {1};
  float fwd = __enzyme_fwddiff((void *)f, enzyme_dup, &fpl, &tpl, enzyme_dup,
                               p, t);
  CHECK_CLOSE(fwd, exact, 1e-5);
  CHECK_CLOSE(central(f, p), exact, 1e-2);
  // (The first call on a pool main set up, then calls on the pool the
  // previous call left.)
  set_up(&pl);
  memset(dpl, 0, sizeof *dpl);
  dpl->blocks[0].next = &dpl->blocks[1];
  dpl->head = &dpl->blocks[0];
  for (int run = 0; run < 3; ++run) {
    float dq[1] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, &pl, dpl, enzyme_dup, p, dq);
    CHECK_CLOSE(dq[0], exact, 1e-5);
    CHECK_CLOSE(dq[0], fwd, 1e-5);
  }
}

int main(void) {
  char *page = large_bits_page();
  if (!page) {
    printf("skipped: no page at a fixed address\n");
    return 77;
  }
  float p[1] = {2.0f};
  double x = p[0];
  struct pool *dpl = (struct pool *)(page + 256);
  check(use_block, p, dpl, 6 * x);
  check(use_two, p, dpl, 4 * x + 3 * x * x);

  // The seed stays.
  struct block out = {.value = 5.0f, .w = 0}, dout = {.value = 1.0f, .w = 0};
  float dp[1] = {0};
  __enzyme_autodiff((void *)square_into, enzyme_dup, &out, &dout, enzyme_dup,
                    p, dp);
  CHECK_CLOSE(out.value, x * x, 1e-6);
  CHECK_CLOSE(dp[0], 2 * x, 1e-5);
  return check_finish();
}
