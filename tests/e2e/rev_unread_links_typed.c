// Issue 33, a caller's link that the request never reads, where the pointer
// to the block says nothing of the link by the type it is read as (see
// rev_unread_links.c for the pool: main links it, and its shadow pool alike
// on a page whose addresses read as large floats; the request stores a float
// with a derivative over a block's link). Each case gave 33555564-like
// values for 12 before (issue 33 item 4):
// - a callee storing a number of its declared type through its parameter,
//   given a block its caller read as a pointer to a record that holds a
//   link there (`init_obj((struct obj *)pl->head, x)`), one call deeper;
// - a pointer cast before it is stored (`pl->obj = (void *)&nodes[0]`, a
//   field declared `struct obj *`), read back as a `struct obj *`;
// - a `void *` read from a global variable, from an array's element (a
//   struct's `void *slots[2]`, a global's, a local one), or from a local
//   struct's member, at -O0.
// Reverse mode against forward mode, central differences and the exact
// derivative, on the first call and over repeated ones.
#include "unread_links_nodes.h"

#include <string.h>

struct pool {
  struct node *head;
  struct obj *obj; // &nodes[1], stored cast: a link lies there
  void *slots[2];  // &nodes[0], &nodes[2]
  int at;          // 1: an index the compiler does not know
  struct node nodes[3];
};

static void link_pool(struct pool *pl) {
  memset(pl, 0, sizeof *pl);
  for (int i = 0; i < 3; ++i)
    pl->nodes[i].next = &pl->nodes[(i + 1) % 3];
  pl->head = &pl->nodes[0];
  pl->obj = (void *)&pl->nodes[1];
  pl->slots[0] = &pl->nodes[0];
  pl->slots[1] = &pl->nodes[2];
  pl->at = 1;
}

#include "unread_links_check.h"

// A callee storing through its parameter a number of its declared type:
// r = 3 x^2 each, dr/dx = 6x.
__attribute__((noinline)) static void init_via(struct obj *o, float v) {
  init_obj(o, v);
}
static float init_head(struct pool *pl, float *p) {
  init_obj((struct obj *)pl->head, p[0] * p[0]);
  return 3 * ((struct obj *)pl->head)->v;
}
static float init_head_via(struct pool *pl, float *p) {
  struct obj *o = (struct obj *)pl->head;
  init_via(o, p[0] * p[0]);
  return 3 * o->v;
}

// A field declared `struct obj *` that holds a block (cast before it was
// stored): r = 3 x^2.
static float cast_stored(struct pool *pl, float *p) {
  pl->obj->v = p[0] * p[0];
  return 3 * pl->obj->v;
}
static float cast_stored_init(struct pool *pl, float *p) {
  init_obj(pl->obj, p[0] * p[0]);
  return 3 * pl->obj->v;
}

// `void *` read from a global variable, and from arrays' elements:
// r = 3 x^2. (The globals' shadows named: the function stores pointers
// with shadows there.)
static void *d_g_block, *d_g_slots[2];
__attribute__((enzyme_shadow(d_g_block))) static void *g_block;
__attribute__((enzyme_shadow(d_g_slots))) static void *g_slots[2];
static float from_global(struct pool *pl, float *p) {
  g_block = pl->slots[0];
  struct obj *o = g_block;
  o->v = p[0] * p[0];
  return 3 * o->v;
}
static float from_global_array(struct pool *pl, float *p) {
  g_slots[1] = pl->slots[1];
  struct obj *o = g_slots[pl->at];
  o->v = p[0] * p[0];
  return 3 * o->v;
}
static float from_field_array(struct pool *pl, float *p) {
  struct obj *o = pl->slots[1];
  o->v = p[0] * p[0];
  return 3 * o->v;
}
static float from_field_array_at(struct pool *pl, float *p) {
  struct obj *o = pl->slots[pl->at];
  o->v = p[0] * p[0];
  return 3 * o->v;
}
static float from_local_array(struct pool *pl, float *p) {
  void *slots[2];
  slots[0] = pl->head;
  slots[1] = pl->slots[1];
  struct obj *o = slots[pl->at];
  o->v = p[0] * p[0];
  return 3 * o->v;
}

// A local struct's `void *` member (-O0: a field of a local variable's
// memory, not a pointer variable): r = 3 x^2.
static float from_local_struct(struct pool *pl, float *p) {
  struct {
    void *block;
  } box = {pl->slots[0]};
  struct obj *o = box.block;
  o->v = p[0] * p[0];
  return 3 * o->v;
}

int main(void) {
  struct pool *dpl = shadow_pool();
  if (!dpl)
    return 77;
  float p[1] = {2.0f};
  double x = p[0];
  CHECK_CASE(init_head, 6 * x);
  CHECK_CASE(init_head_via, 6 * x);
  CHECK_CASE(cast_stored, 6 * x);
  CHECK_CASE(cast_stored_init, 6 * x);
  CHECK_CASE(from_global, 6 * x);
  CHECK_CASE(from_global_array, 6 * x);
  CHECK_CASE(from_field_array, 6 * x);
  CHECK_CASE(from_field_array_at, 6 * x);
  CHECK_CASE(from_local_array, 6 * x);
  CHECK_CASE(from_local_struct, 6 * x);
  return check_finish();
}
