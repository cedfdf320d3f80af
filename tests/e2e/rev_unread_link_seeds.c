// Issue 33: a seed that the caller puts in output memory that the request
// reaches through a pointer it reads from memory, where a caller's link
// could lie by the type (a union of a float and a pointer, a `void *`, a
// `char *`, a record of numbers that another file may convert a linked
// record to, a pointer handed back through an out-parameter, read from a
// heap array or made from an integer). The number stored there starts its
// adjoint from zero only where the shadow bytes read as an address (a
// link's shadow, docs/reverse-mode.md "Shadows of memory reused"); a seed,
// a number, stays. Before, every one of these seeds was dropped (a
// gradient of 0, issue 33 item 4), at -O0..-O3. Outputs y = x^2 (floats
// next to zeroed bytes, floats next to numbers or a small int, doubles,
// negative seeds);
// reverse mode against the seed times the exact derivative and central
// differences.
#include "check.h"

#include <stdint.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

struct node {
  union {
    float value;
    struct node *next;
  };
};
struct pair {
  float a, b;
};
struct counted {
  float v;
  int n; // 7 in the primal and in the shadow
};
struct ctx {
  struct node *first; // first->next: an output node
  void *out;          // a float output
  char *bytes;        // a float output
  struct node *un;    // an output node
  void *dout;         // a double output
  struct pair *pr;    // pr->b: a float output next to a number
  uintptr_t addr;     // a float output, as an integer
  void **heap;        // heap[1]: a float output
  void *cnt;          // a float output beside an int
};

static void through_node(struct ctx *c, float *p) {
  c->first->next->value = p[0] * p[0];
}
static void through_void(struct ctx *c, float *p) {
  *(float *)c->out = p[0] * p[0];
}
static void through_char(struct ctx *c, float *p) {
  *(float *)c->bytes = p[0] * p[0];
}
static void through_union(struct ctx *c, float *p) {
  c->un->value = p[0] * p[0];
}
static void through_void_double(struct ctx *c, float *p) {
  *(double *)c->dout = (double)p[0] * p[0];
}
static void through_record(struct ctx *c, float *p) {
  c->pr->b = p[0] * p[0];
}
static void through_counted(struct ctx *c, float *p) {
  ((struct counted *)c->cnt)->v = p[0] * p[0];
}
static void through_int(struct ctx *c, float *p) {
  *(float *)c->addr = p[0] * p[0];
}
static void through_heap(struct ctx *c, float *p) {
  *(float *)c->heap[1] = p[0] * p[0];
}
__attribute__((noinline)) static void get_out(struct ctx *c, void **o) {
  *o = c->out;
}
static void through_out_param(struct ctx *c, float *p) {
  float *o;
  get_out(c, (void **)&o);
  *o = p[0] * p[0];
}

// The primal and the shadow of a context whose outputs hold 5 (the
// primal) or the seed (the shadow), and whose other bytes are zero.
struct world {
  struct ctx c;
  struct node first, second, un;
  float out, bytes, zero, addr;
  double dout;
  struct pair pr;
  void *heap[2];
  struct counted cnt;
};
static void set_up(struct world *w, float value) {
  memset(w, 0, sizeof *w);
  w->c.first = &w->first;
  w->first.next = &w->second;
  w->second.value = value;
  w->c.out = &w->out;
  w->out = value;
  w->c.bytes = (char *)&w->bytes;
  w->bytes = value;
  w->c.un = &w->un;
  w->un.value = value;
  w->c.dout = &w->dout;
  w->dout = value;
  w->c.pr = &w->pr;
  w->pr.a = 3; // (a number next to the output)
  w->pr.b = value;
  w->c.addr = (uintptr_t)&w->addr;
  w->addr = value;
  w->c.heap = w->heap;
  w->heap[1] = &w->out;
  w->c.cnt = &w->cnt;
  w->cnt.v = value;
  w->cnt.n = 7;
}

typedef void (*fn)(struct ctx *, float *);

// The output f writes, read back from the primal world.
static double output(fn f, struct world *w) {
  if (f == through_node)
    return w->second.value;
  if (f == through_char)
    return w->bytes;
  if (f == through_union)
    return w->un.value;
  if (f == through_void_double)
    return w->dout;
  if (f == through_record)
    return w->pr.b;
  if (f == through_int)
    return w->addr;
  if (f == through_counted)
    return w->cnt.v;
  return w->out;
}

static double central(fn f, float x) {
  static struct world w;
  float h = 1e-2f, p[1] = {x + h};
  set_up(&w, 5);
  f(&w.c, p);
  double up = output(f, &w);
  set_up(&w, 5);
  p[0] = x - h;
  f(&w.c, p);
  return (up - output(f, &w)) / (2 * h);
}

static void check(const char *name, fn f, float seed) {
  int failures = check_failures;
  static struct world w, dw;
  float p[1] = {2}, dp[1] = {0};
  set_up(&w, 5);
  set_up(&dw, seed);
  __enzyme_autodiff((void *)f, enzyme_dup, &w.c, &dw.c, enzyme_dup, p, dp);
  CHECK_CLOSE(output(f, &w), 4.0, 1e-6);
  CHECK_CLOSE(dp[0], seed * 4.0, 1e-5);
  CHECK_CLOSE(dp[0], seed * central(f, 2), 1e-2);
  if (check_failures != failures)
    printf("  (in %s, seed %g)\n", name, seed);
}
#define CHECK_SEEDS(f)                                                         \
  do {                                                                         \
    check(#f, f, 1);                                                           \
    check(#f, f, -2.5f);                                                       \
    check(#f, f, 1e-3f);                                                       \
  } while (0)

int main(void) {
  CHECK_SEEDS(through_node);
  CHECK_SEEDS(through_void);
  CHECK_SEEDS(through_char);
  CHECK_SEEDS(through_union);
  CHECK_SEEDS(through_void_double);
  CHECK_SEEDS(through_record);
  CHECK_SEEDS(through_int);
  CHECK_SEEDS(through_heap);
  CHECK_SEEDS(through_out_param);
  CHECK_SEEDS(through_counted);
  return check_finish();
}
