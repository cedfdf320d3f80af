/* Counts read through the `long long *` and `int *` fields of a pattern
 * struct passed enzyme_const (a block pattern as OSQP keeps its CSC
 * matrices), copied whole into a local whose values pointer is then set to
 * the active input. Each count is passed to a helper that is not inlined,
 * which stores it into a struct it allocates, allocates the block's values
 * with it, and another helper uses it as its loop bound.
 *
 * At -O0 Clang writes no TBAA: until 2026-12-07 nothing typed the integers
 * read through the fields, which may have been a double's bits. Forward
 * mode gave them tangents loaded through the local's shadow of the
 * pointers, which the copy from the constant pattern had left null: a
 * crash, in both modes. The frontend now records the fields' declared
 * pointees (adcore/DeclaredPointees.h) and the counts are integers.
 *
 * Forward mode along each input against the analytic derivative and
 * central differences, reverse mode against forward mode, the primal's
 * result against a plain call's. */
#include "check.h"

#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

enum { NB = 3, NX = 5 };

struct pattern {
  long long n;
  long long *start; /* n + 1 offsets */
  int *weight;      /* one per block */
  double *x;        /* the values: set to the input in a local copy */
};

struct block {
  long long count;
  int weight;
  double *v;
};

__attribute__((noinline)) static struct block *make_block(long long count,
                                                          int weight) {
  struct block *b = calloc(1, sizeof *b);
  if (!b)
    abort();
  b->count = count;
  b->weight = weight;
  b->v = malloc(sizeof(double) * count);
  return b;
}

__attribute__((noinline)) static double block_sum(const double *v,
                                                  long long count,
                                                  int weight) {
  double s = 0;
  for (long long k = 0; k < count; ++k)
    s += weight * v[k] * v[k];
  return s;
}

/* sum over blocks j of weight_j sum_k x_k^2 + x_k * (count_j) */
static double objective(const double *x, const struct pattern *pattern) {
  struct pattern local = *pattern;
  local.x = (double *)x;
  const struct pattern *pat = &local;
  double r = 0;
  for (long long j = 0; j < pat->n; ++j) {
    struct block *b =
        make_block(pat->start[j + 1] - pat->start[j], pat->weight[j]);
    for (long long k = 0; k < b->count; ++k)
      b->v[k] = pat->x[pat->start[j] + k];
    r += block_sum(b->v, b->count, b->weight);
    for (long long k = 0; k < b->count; ++k)
      r += b->v[k] * (double)b->count;
    free(b->v);
    free(b);
  }
  return r;
}

static double analytic(const double *x, const struct pattern *pat, int t) {
  int j = 0;
  while (pat->start[j + 1] <= t)
    ++j;
  return 2 * pat->weight[j] * x[t] +
         (double)(pat->start[j + 1] - pat->start[j]);
}

int main(void) {
  long long start[NB + 1] = {0, 2, 3, NX};
  int weight[NB] = {1, 2, 3};
  struct pattern pat = {NB, start, weight, 0};
  double x[NX] = {0.5, -1.25, 2.0, 0.75, -0.4}, g[NX] = {0};
  double plain = objective(x, &pat);
  __enzyme_autodiff((void *)objective, enzyme_dup, x, g, enzyme_const, &pat);
  for (int t = 0; t < NX; ++t) {
    double dx[NX] = {0};
    dx[t] = 1;
    double d = __enzyme_fwddiff((void *)objective, enzyme_dup, x, dx,
                                enzyme_const, &pat);
    double xp[NX], xm[NX], h = 1e-6;
    for (int k = 0; k < NX; ++k)
      xp[k] = xm[k] = x[k];
    xp[t] += h;
    xm[t] -= h;
    double fd = (objective(xp, &pat) - objective(xm, &pat)) / (2 * h);
    CHECK_CLOSE(d, analytic(x, &pat, t), 1e-13);
    CHECK_CLOSE(d, fd, 1e-6);
    CHECK_CLOSE(g[t], d, 1e-13);
  }
  CHECK_CLOSE(objective(x, &pat), plain, 0);
  /* The pattern is the caller's: untouched. */
  CHECK_TRUE(pat.start == start && pat.weight == weight && pat.x == 0);
  CHECK_TRUE(start[NB] == NX && weight[NB - 1] == 3);
  return check_finish();
}
