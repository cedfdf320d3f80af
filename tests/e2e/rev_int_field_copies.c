/* Dimensions copied between the `int32_t d[4]` fields of nodes, and into
 * one from an `int32_t d[]` parameter, by memcpy of a run-time count, as
 * KANN's kad_copy_dim1 (`memcpy(dst->d, src->d, src->n_d * sizeof(int))`)
 * and kann_new_leaf_array do; the nodes also hold pointers to their values,
 * which carry derivatives. At -O0 nothing in the copying functions reads
 * the bytes: the struct's declared field says they are integers (until
 * 2026-12-07 "a memory copy whose contents cannot be typed"; from -O1 the
 * copies are inlined into typed code. A copying function kept out of line
 * at -O1 and up, which addresses the field in bytes, is still refused).
 * The value
 * depends on the copied dimensions; reverse and forward mode against the
 * analytic gradient and central differences. */
#include "check.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
  uint8_t n_d;
  int32_t d[4];
  double *x;
  struct node *child;
} node;

static void copy_dim(node *dst, const node *src) {
  dst->n_d = src->n_d;
  if (src->n_d)
    memcpy(dst->d, src->d, src->n_d * sizeof(int));
}

static node *new_leaf(int n_d, const int32_t d[4], const double *x) {
  node *p = calloc(1, sizeof *p);
  p->n_d = n_d;
  memcpy(p->d, d, n_d * sizeof(int32_t));
  int len = 1;
  for (int i = 0; i < n_d; ++i)
    len *= p->d[i];
  p->x = malloc(len * sizeof(double));
  for (int i = 0; i < len; ++i)
    p->x[i] = x[i];
  return p;
}

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* sum_i x_i^2 (i + 1) over a 2 x 3 leaf, then over a node whose shape is
 * the leaf's (copied) and whose values are the leaf's scaled by its rows. */
static double loss(const double *x, const int32_t *dims) {
  node *a = new_leaf(2, dims, x);
  node *b = calloc(1, sizeof *b);
  copy_dim(b, a);
  int len = b->d[0] * b->d[1];
  b->x = malloc(len * sizeof(double));
  for (int i = 0; i < len; ++i)
    b->x[i] = a->x[i] * b->d[0];
  double s = 0;
  for (int i = 0; i < len; ++i)
    s += a->x[i] * b->x[i] * (i + 1);
  free(a->x), free(a), free(b->x), free(b);
  return s;
}

int main(void) {
  int32_t dims[4] = {2, 3, 0, 0};
  double x[6] = {0.5, -1, 2, 0.25, 1.5, -0.75}, g[6] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, g, enzyme_const, dims);
  for (int i = 0; i < 6; ++i) {
    double want = 2 * 2 * x[i] * (i + 1);
    CHECK_CLOSE(g[i], want, 1e-12);
    double dx[6] = {0}, xp[6], xm[6], h = 1e-6;
    dx[i] = 1;
    double t = __enzyme_fwddiff((void *)loss, enzyme_dup, x, dx,
                                enzyme_const, dims);
    CHECK_CLOSE(t, want, 1e-12);
    memcpy(xp, x, sizeof x), memcpy(xm, x, sizeof x);
    xp[i] += h, xm[i] -= h;
    CHECK_CLOSE((loss(xp, dims) - loss(xm, dims)) / (2 * h), want, 1e-6);
  }
  return check_finish();
}
