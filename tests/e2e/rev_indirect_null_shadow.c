/* A constant pointer (the truth of a cross-entropy, enzyme_const) stored
 * beside a duplicated one in heap nodes, and the nodes handed to an
 * operation called through a table of function pointers, as KANN's
 * kad_op_list calls kad_op_ce_multi: the operation's reverse sweep must
 * guard the null shadow read from the truth's node, as it does for a
 * direct call. Until 2026-12-07 the reverse sweep of the call through the
 * table dereferenced it (segmentation fault at every level). Reverse and
 * forward mode against the analytic gradient -t/w and central
 * differences. */
#include "check.h"

#include <math.h>
#include <stdlib.h>

typedef struct node {
  int n;
  float *x;
  struct node **child;
} node;

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static float cross_entropy(node *p) {
  node *y1 = p->child[0], *y0 = p->child[1];
  double cost = 0;
  for (int i = 0; i < p->n; ++i)
    if (y0->x[i] > 0)
      cost += y0->x[i] * log(y0->x[i] / y1->x[i]);
  return (float)cost;
}

__attribute__((noinline)) static float squares(node *p) {
  float s = 0;
  for (int i = 0; i < p->n; ++i)
    s += p->child[0]->x[i] * p->child[1]->x[i];
  return s;
}

typedef float (*operation)(node *);
operation ops[2] = {cross_entropy, squares};
volatile int which = 0;

static float loss(const float *truth, const float *w, int n) {
  node *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
  node *c = calloc(1, sizeof *c);
  node **children = malloc(2 * sizeof *children);
  children[0] = b;
  children[1] = a;
  a->x = (float *)truth;
  b->x = (float *)w;
  c->child = children;
  c->n = n;
  float s = ops[which](c);
  free(children);
  free(a);
  free(b);
  free(c);
  return s;
}

int main(void) {
  float t[3] = {0.2f, 0.3f, 0.5f}, w[3] = {0.1f, 0.6f, 0.3f}, g[3] = {0};
  __enzyme_autodiff((void *)loss, enzyme_const, t, enzyme_dup, w, g,
                    enzyme_const, 3);
  for (int i = 0; i < 3; ++i) {
    float dw[3] = {0}, w1[3] = {w[0], w[1], w[2]}, w2[3] = {w[0], w[1], w[2]};
    dw[i] = 1;
    float h = 1e-3f;
    w1[i] += h;
    w2[i] -= h;
    CHECK_CLOSE(g[i], -t[i] / w[i], 1e-5);
    CHECK_CLOSE(g[i], (loss(t, w1, 3) - loss(t, w2, 3)) / (2 * h), 1e-2);
    CHECK_CLOSE(__enzyme_fwddiff((void *)loss, enzyme_const, t, enzyme_dup, w,
                                 dw, enzyme_const, 3),
                g[i], 1e-5);
  }
  return check_finish();
}
