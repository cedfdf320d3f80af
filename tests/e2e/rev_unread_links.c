// Issue 33, a caller's link that the request never reads: main links a pool
// (and its shadow pool alike, on a page whose addresses read as large
// floats); the differentiated function takes blocks by pointers it reads
// from the pool (never the blocks' links) and stores a float with a
// derivative over each block's link. The float's adjoint starts from zero,
// not from the link's shadow (docs/reverse-mode.md, "Shadows of memory
// reused"): before the fix `head_only` gave 33555564 for 12 at every level.
// Also a callee storing the float through its parameter, given the block
// (DerivativeKey::LinkedArgs), the block cast to a struct of numbers
// (`cast_head`, 33555564 for 12 before, at -O0..-O3), the block read as a
// `void *` or `char *` (from a field, or a function's result: a free list
// linked through `void *`), at an offset that is not constant or beyond
// the first block (each 33555564-like before, at -O0..-O3; the double
// object's error, a link's bits read as a double, is a denormal), and a
// seed that the caller puts in an output block it passes as an argument,
// which stays; a callee storing a number of its declared type through its
// parameter, given a block read as `void *` or `char *`
// (`init_obj((struct obj *)pl->any, x)`, 33555564 for 12 before, -O0..-O3).
// Reverse mode against forward mode, central differences and the exact
// derivative, on the first call and over repeated ones.
#include "unread_links_nodes.h"

#include <string.h>

struct pool {
  struct node *head, *tail;
  void *any;   // &nodes[0], declared `void *`
  char *bytes; // &nodes[1], declared `char *`
  void *free;  // a free list of 8-byte blocks linked through `void *`
  int at;      // 1: an index the compiler does not know
  struct node nodes[3];
  _Alignas(8) unsigned char arena[3 * 8];
};

static void link_pool(struct pool *pl) {
  memset(pl, 0, sizeof *pl);
  for (int i = 0; i < 3; ++i) {
    pl->nodes[i].next = &pl->nodes[(i + 1) % 3];
    *(void **)(pl->arena + 8 * i) = pl->arena + 8 * ((i + 1) % 3);
  }
  pl->head = &pl->nodes[0];
  pl->tail = &pl->nodes[1];
  pl->any = &pl->nodes[0];
  pl->bytes = (char *)&pl->nodes[1];
  pl->free = pl->arena;
  pl->at = 1;
}

#include "unread_links_check.h"

// r = 3 x^2, dr/dx = 6x.
static float head_only(struct pool *pl, float *p) {
  struct node *h = pl->head;
  h->value = p[0] * p[0];
  return 3 * h->value;
}

// Two blocks, neither link read: r = 2 x^2 + x^3, dr/dx = 4x + 3x^2.
static float head_and_tail(struct pool *pl, float *p) {
  struct node *a = pl->head, *b = pl->tail;
  a->value = 2 * p[0];
  b->value = p[0] * p[0];
  return a->value * p[0] + b->value * p[0];
}

// The block a call returns: r = x^2 + x, dr/dx = 2x + 1.
__attribute__((noinline)) static struct node *peek(struct pool *pl) {
  return pl->head;
}
static float peeked(struct pool *pl, float *p) {
  struct node *h = peek(pl);
  h->value = p[0] * p[0];
  h->value += p[0];
  return h->value;
}

// The block a callee initializes, given the block read from the pool:
// r = 3 x^2, dr/dx = 6x.
__attribute__((noinline)) static void init(struct node *n, float v) {
  n->value = v;
}
static float initialized(struct pool *pl, float *p) {
  struct node *h = pl->head;
  init(h, p[0] * p[0]);
  return 3 * h->value;
}

// The head block cast to a struct whose member is declared a number (the
// pointer was read as a `struct node *`, whose bytes hold the link):
// r = 3 x^2, dr/dx = 6x.
static float cast_head(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->head;
  o->v = p[0] * p[0];
  return 3 * o->v;
}

// Pointers read as `void *` or `char *`, cast: any of the bytes they reach
// may hold a link (33555564 for 12 before, at -O0..-O3). r = 3 x^2.
static float cast_any(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->any;
  o->v = p[0] * p[0];
  return 3 * o->v;
}
static float cast_bytes(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->bytes;
  o->v = p[0] * p[0];
  return 3 * o->v;
}

// A free list whose links are `void *` in the blocks' first bytes; blocks
// handed out by a function, which unlinks the block (reads its link, and
// links it back after) or not: r = 3 x^2 + x^2 (float objects), 3 x^2 (a
// double one).
struct dobj {
  double v;
};
__attribute__((noinline)) static void *take(struct pool *pl) {
  void *b = pl->free;
  pl->free = *(void **)b;
  return b;
}
__attribute__((noinline)) static void *peek_free(struct pool *pl) {
  return pl->free;
}
__attribute__((noinline)) static void give(struct pool *pl, void *b) {
  *(void **)b = pl->free;
  pl->free = b;
}
static float handed_out(struct pool *pl, float *p) {
  struct obj *q = take(pl), *o = peek_free(pl);
  o->v = p[0] * p[0];
  q->v = p[0];
  float r = 3 * o->v + q->v * p[0];
  give(pl, q);
  return r;
}
static float handed_out_double(struct pool *pl, float *p) {
  struct dobj *o = peek_free(pl);
  o->v = (double)p[0] * p[0];
  return (float)(3 * o->v);
}

// Offsets that are not constant, or beyond the first record: the block at
// pl->at (1), the third block, every block in a loop. r = 3 x^2, 3 x^2,
// 6 x^2 (the loop: x^2 (1 + 2 + 3)).
static float at_index(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->head;
  o[pl->at].v = p[0] * p[0];
  return 3 * o[pl->at].v;
}
static float third_of_any(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->any;
  o[2].v = p[0] * p[0];
  return 3 * o[2].v;
}
static float every_block(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->any;
  float s = 0;
  for (int i = 0; i < 3; ++i)
    o[i].v = p[0] * p[0] * (float)(i + 1);
  for (int i = 0; i < 3; ++i)
    s += o[i].v;
  return s;
}

// A callee that stores a number of its declared type through its
// parameter, given a block read as `void *` or `char *` (from a field, or
// a function's result), or one call further down: r = 3 x^2 each
// (33555564 for 12 before, at -O0..-O3).
__attribute__((noinline)) static void init_via(struct obj *o, float v) {
  init_obj(o, v);
}
static float init_any(struct pool *pl, float *p) {
  init_obj((struct obj *)pl->any, p[0] * p[0]);
  return 3 * ((struct obj *)pl->any)->v;
}
static float init_bytes(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->bytes;
  init_via(o, p[0] * p[0]);
  return 3 * o->v;
}
static float init_free(struct pool *pl, float *p) {
  struct obj *o = peek_free(pl);
  init_obj(o, p[0] * p[0]);
  return 3 * o->v;
}

// An output block the caller passes and seeds (its primal a number):
// out->value = x^2 keeps the seed, dx = 2x.
static void square_into(struct node *out, const float *p) {
  out->value = p[0] * p[0];
}

int main(void) {
  struct pool *dpl = shadow_pool();
  if (!dpl)
    return 77;
  float p[1] = {2.0f};
  double x = p[0];
  CHECK_CASE(head_only, 6 * x);
  CHECK_CASE(head_and_tail, 4 * x + 3 * x * x);
  CHECK_CASE(peeked, 2 * x + 1);
  CHECK_CASE(initialized, 6 * x);
  CHECK_CASE(cast_head, 6 * x);
  CHECK_CASE(cast_any, 6 * x);
  CHECK_CASE(cast_bytes, 6 * x);
  CHECK_CASE(handed_out, 6 * x + 2 * x);
  CHECK_CASE(handed_out_double, 6 * x);
  CHECK_CASE(at_index, 6 * x);
  CHECK_CASE(third_of_any, 6 * x);
  CHECK_CASE(every_block, 12 * x);
  CHECK_CASE(init_any, 6 * x);
  CHECK_CASE(init_bytes, 6 * x);
  CHECK_CASE(init_free, 6 * x);

  // The seed stays.
  struct node out = {.value = 5.0f}, dout = {.value = 1.0f};
  float dp[1] = {0};
  __enzyme_autodiff((void *)square_into, enzyme_dup, &out, &dout, enzyme_dup,
                    p, dp);
  CHECK_CLOSE(out.value, x * x, 1e-6);
  CHECK_CLOSE(dp[0], 2 * x, 1e-5);
  return check_finish();
}
