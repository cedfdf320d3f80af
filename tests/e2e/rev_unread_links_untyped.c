// Issue 33, a caller's link that the request never reads (see
// rev_unread_links.c for the pool: main links it, and its shadow pool alike
// on a page whose addresses read as large floats; the request stores a
// float with a derivative over a block's link), where the pointer to the
// block has a type that says nothing of what it points to. Each case gave
// 33555564-like values for 12 before (issue 33 item 4), at the levels said:
// - a pointer handed back through an out-parameter (`get(pl, (void
//   **)&o)`, into a `struct obj *` variable), -O0..-O3;
// - a pointer made from an integer: a `uintptr_t` field, and a pointer
//   taken as an integer and offset, -O0..-O3;
// - a `void *` read from a heap array (the caller's, and one the function
//   allocates), whose declared type no entry records, -O0;
// - a callee given such a pointer, storing a number of its declared type
//   through its parameter, -O0..-O3.
// Reverse mode against forward mode, central differences and the exact
// derivative, on the first call and over repeated ones.
#include "unread_links_nodes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pool {
  struct node *head;
  uintptr_t addr; // &nodes[2] as an integer
  void **heap;    // a heap array of `void *`: &nodes[1], &nodes[2]
  struct node nodes[3];
};

static void link_pool(struct pool *pl) {
  memset(pl, 0, sizeof *pl);
  for (int i = 0; i < 3; ++i)
    pl->nodes[i].next = &pl->nodes[(i + 1) % 3];
  pl->head = &pl->nodes[0];
  pl->addr = (uintptr_t)&pl->nodes[2];
  pl->heap = malloc(2 * sizeof(void *)); // (never freed: a test)
  pl->heap[0] = &pl->nodes[1];
  pl->heap[1] = &pl->nodes[2];
}

#include "unread_links_check.h"

// A pointer handed back through an out-parameter: r = 3 x^2, dr/dx = 6x.
__attribute__((noinline)) static void get(struct pool *pl, void **o) {
  *o = pl->head;
}
static float out_param(struct pool *pl, float *p) {
  struct obj *o;
  get(pl, (void **)&o);
  o->v = p[0] * p[0];
  return 3 * o->v;
}

// Pointers made from integers: r = 3 x^2.
static float from_int_field(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->addr;
  o->v = p[0] * p[0];
  return 3 * o->v;
}
static float from_int_offset(struct pool *pl, float *p) {
  uintptr_t u = (uintptr_t)pl->head;
  struct obj *o = (struct obj *)(u + sizeof(struct node));
  o->v = p[0] * p[0];
  return 3 * o->v;
}

// `void *` read from heap arrays: r = 3 x^2.
static float from_heap(struct pool *pl, float *p) {
  struct obj *o = pl->heap[1];
  o->v = p[0] * p[0];
  return 3 * o->v;
}
static float from_own_heap(struct pool *pl, float *p) {
  void **slots = malloc(2 * sizeof *slots);
  slots[0] = pl->head;
  slots[1] = pl->head + 1;
  struct obj *o = slots[1];
  o->v = p[0] * p[0];
  float r = 3 * o->v;
  free(slots);
  return r;
}

// A callee storing a number of its declared type through its parameter,
// given such pointers: r = 3 x^2.
static float init_out_param(struct pool *pl, float *p) {
  struct obj *o;
  get(pl, (void **)&o);
  init_obj(o, p[0] * p[0]);
  return 3 * o->v;
}
static float init_from_int(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->addr;
  init_obj(o, p[0] * p[0]);
  return 3 * o->v;
}
static float init_from_heap(struct pool *pl, float *p) {
  struct obj *o = pl->heap[0];
  init_obj(o, p[0] * p[0]);
  return 3 * o->v;
}

int main(void) {
  struct pool *dpl = shadow_pool();
  if (!dpl)
    return 77;
  float p[1] = {2.0f};
  double x = p[0];
  CHECK_CASE(out_param, 6 * x);
  CHECK_CASE(from_int_field, 6 * x);
  CHECK_CASE(from_int_offset, 6 * x);
  CHECK_CASE(from_heap, 6 * x);
  CHECK_CASE(from_own_heap, 6 * x);
  CHECK_CASE(init_out_param, 6 * x);
  CHECK_CASE(init_from_int, 6 * x);
  CHECK_CASE(init_from_heap, 6 * x);
  return check_finish();
}
