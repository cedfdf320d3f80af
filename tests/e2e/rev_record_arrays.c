/* Arrays of records grown by memcpy of a run-time length, as a block
 * allocator keeps its chunks (Box2D's b2BlockAllocator: `{int size;
 * block *blocks;}` records, the array copied into a larger one when
 * full): the records hold no floating-point number, so the copy moves no
 * adjoint, while the numbers live in the blocks the records point to. The
 * reverse sweep refused the copy ("a memory copy whose contents cannot be
 * typed") until 2026-12-06: the accesses found only some of the records'
 * bytes, and only the records' declared type says the rest holds no
 * number. Beside it, records that do hold a number (`{int id; double w;}`),
 * grown the same way, whose adjoints must move with the copy; and tree
 * nodes mixing numbers, a pointer and an int, grown by a helper that
 * reloads the array's pointer from the tree for each use (Box2D's
 * b2DynamicTree::AllocateNode): at -O0 the type analysis sees none of the
 * nodes' accesses there, and the copy was refused until 2026-12-06; the
 * nodes' declared type now says where the numbers are. Reverse mode
 * against analytic values and central differences, forward mode against
 * reverse. */
#include "check.h"

#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct block {
  struct block *next;
};
struct chunk {
  int size;
  struct block *blocks;
};
struct pool {
  int count, space;
  struct chunk *chunks;
};

__attribute__((noinline)) static void *raw(int n) { return malloc(n); }

/* A block of `bytes` bytes in a new chunk, the chunk array grown by two
   records when full. */
__attribute__((noinline)) static void *take(struct pool *p, int bytes) {
  if (p->count == p->space) {
    struct chunk *old = p->chunks;
    p->space += 2;
    p->chunks = (struct chunk *)raw(p->space * (int)sizeof(struct chunk));
    memcpy(p->chunks, old, p->count * sizeof(struct chunk));
    memset(p->chunks + p->count, 0, 2 * sizeof(struct chunk));
    free(old);
  }
  struct chunk *c = p->chunks + p->count;
  c->blocks = (struct block *)raw(bytes);
  c->size = bytes;
  ++p->count;
  return c->blocks;
}

enum { K = 5 };

/* sum_i ((i + 1) x0 + x1)^2, each term kept in a block of the pool. */
static double pooled(const double *x) {
  struct pool p = {0, 0, 0};
  double *v[K];
  for (int i = 0; i < K; ++i) {
    v[i] = (double *)take(&p, sizeof(double));
    *v[i] = x[0] * (i + 1) + x[1];
  }
  double s = 0;
  for (int i = 0; i < K; ++i)
    s += *v[i] * *v[i];
  for (int i = 0; i < p.count; ++i)
    free(p.chunks[i].blocks);
  free(p.chunks);
  return s;
}

struct weight {
  int id;
  double w;
};

/* The same sum, the terms kept in records with a number, grown by memcpy. */
static double weighted(const double *x) {
  int n = 0, space = 1;
  struct weight *r = (struct weight *)raw(space * (int)sizeof *r);
  for (int i = 0; i < K; ++i) {
    if (n == space) {
      struct weight *old = r;
      space *= 2;
      r = (struct weight *)raw(space * (int)sizeof *r);
      memcpy(r, old, n * sizeof *r);
      free(old);
    }
    r[n].id = i;
    r[n].w = x[0] * (i + 1) + x[1];
    ++n;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += r[i].w * r[i].w;
  free(r);
  return s;
}

struct node {
  double lo, hi;
  void *user;
  int next;
};
struct tree {
  int count, space;
  struct node *nodes;
};

/* A new node's index, the array doubled by memcpy when full. */
__attribute__((noinline)) static int new_node(struct tree *t) {
  if (t->count == t->space) {
    struct node *old = t->nodes;
    t->space *= 2;
    t->nodes = (struct node *)raw(t->space * (int)sizeof(struct node));
    memcpy(t->nodes, old, t->count * sizeof(struct node));
    free(old);
  }
  t->nodes[t->count].next = -1;
  return t->count++;
}

/* sum_i v_i^2 + h_i v_i, v_i = (i + 1) x0 + x1, h_i = x0 - i x1, kept in
   the nodes. */
static double treed(const double *x) {
  struct tree t = {0, 1, (struct node *)raw(sizeof(struct node))};
  for (int i = 0; i < K; ++i) {
    int k = new_node(&t);
    t.nodes[k].lo = x[0] * (i + 1) + x[1];
    t.nodes[k].hi = x[0] - i * x[1];
    t.nodes[k].user = &t;
  }
  double s = 0;
  for (int i = 0; i < t.count; ++i)
    s += t.nodes[i].lo * t.nodes[i].lo + t.nodes[i].hi * t.nodes[i].lo;
  free(t.nodes);
  return s;
}

/* The sum's gradient: sum_i v_i^2 (+ h_i v_i with the tree). */
static void analytic(const double *x, int tree, double *g) {
  g[0] = g[1] = 0;
  for (int i = 0; i < K; ++i) {
    double v = x[0] * (i + 1) + x[1], h = x[0] - i * x[1];
    g[0] += 2 * v * (i + 1);
    g[1] += 2 * v;
    if (tree) {
      g[0] += v + h * (i + 1);
      g[1] += -i * v + h;
    }
  }
}

static void check_sum(double (*f)(const double *), int tree) {
  double x[2] = {0.5, 0.25}, dx[2] = {0, 0}, g[2];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  analytic(x, tree, g);
  CHECK_CLOSE(dx[0], g[0], 1e-12);
  CHECK_CLOSE(dx[1], g[1], 1e-12);
  for (int j = 0; j < 2; ++j) {
    double keep = x[j], h = 1e-6;
    x[j] = keep + h;
    double up = f(x);
    x[j] = keep - h;
    double down = f(x);
    x[j] = keep;
    CHECK_CLOSE(dx[j], (up - down) / (2 * h), 1e-7);
    double t[2] = {0, 0};
    t[j] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, t), dx[j], 1e-12);
  }
}

int main(void) {
  check_sum(pooled, 0);
  check_sum(weighted, 0);
  check_sum(treed, 1);
  return check_finish();
}
