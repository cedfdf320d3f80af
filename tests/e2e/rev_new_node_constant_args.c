/* A node allocated by a function called with integers only (KANN's
 * kann_layer_conv1d calling kann_new_weight_conv1d, whose
 * kann_new_leaf_array returns a node it callocs or one of a list it is
 * given), stored into the graph of the differentiated function; a second
 * function moves the node's values into one block through the graph
 * (kad_ext_collate), and the parameters are written there. The call's
 * result was taken as constant (no argument active, the callee not
 * returning new blocks only): the node's null shadow went into the graph's
 * shadow, and the values' shadow was read through it, a crash at -O0 until
 * 2026-12-07. Reverse and forward mode against the analytic gradient and
 * central differences. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

typedef struct node {
  int n_child, n;
  double *x;
  struct node **child;
} node;

static node *leaf_array(int *offset, node **par, int n) {
  int off = offset && par ? *offset : -1;
  if (off >= 0 && par[off])
    return par[(*offset)++];
  node *p = calloc(1, sizeof *p);
  p->n = n;
  p->x = calloc(n, sizeof(double));
  if (off >= 0)
    par[off] = p, ++(*offset);
  return p;
}

static node *weight(int n) { return leaf_array(0, 0, n); }

static node *op(node *in, node *w) {
  node *s = calloc(1, sizeof *s);
  s->n_child = 2;
  s->child = calloc(2, sizeof(node *));
  s->child[0] = in;
  s->child[1] = w;
  return s;
}

static node *layer(node *in, int n) {
  node *w = weight(n);
  return op(in, w);
}

static void collate(node *c, double *block) {
  for (int i = 0; i < c->n_child; ++i) {
    node *v = c->child[i];
    if (v->n_child == 0 && v->n) {
      memcpy(block, v->x, v->n * sizeof(double));
      free(v->x);
      v->x = block;
      block += v->n;
    }
  }
}

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* sum_i p_i^2 x_i, p written into the collated block of the weights. */
static double loss(const double *p, double *x) {
  node *in = calloc(1, sizeof *in);
  in->x = x;
  node *c = layer(in, 3);
  double *block = malloc(3 * sizeof(double));
  collate(c, block);
  for (int i = 0; i < 3; ++i)
    block[i] = p[i];
  node *w = c->child[1];
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += w->x[i] * w->x[i] * in->x[i];
  free(block), free(c->child), free(c), free(w), free(in);
  return s;
}

int main(void) {
  double p[3] = {1, -2, 0.5}, x[3] = {0.5, 1, 2}, gp[3] = {0}, gx[3] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, p, gp, enzyme_dup, x, gx);
  for (int i = 0; i < 3; ++i) {
    CHECK_CLOSE(gp[i], 2 * p[i] * x[i], 1e-12);
    CHECK_CLOSE(gx[i], p[i] * p[i], 1e-12);
    double dp[3] = {0}, dx[3] = {0}, pp[3], pm[3], h = 1e-6;
    dp[i] = 1;
    double t = __enzyme_fwddiff((void *)loss, enzyme_dup, p, dp, enzyme_dup,
                                x, dx);
    CHECK_CLOSE(t, gp[i], 1e-12);
    memcpy(pp, p, sizeof p), memcpy(pm, p, sizeof p);
    pp[i] += h, pm[i] -= h;
    CHECK_CLOSE((loss(pp, x) - loss(pm, x)) / (2 * h), gp[i], 1e-6);
  }
  return check_finish();
}
