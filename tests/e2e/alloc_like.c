/* The program's own allocators registered with Enzyme's
 * __enzyme_allocation_like = {allocator, size argument, "deallocator
 * arguments", deallocator}: blocks they allocate in differentiated code get
 * shadow blocks from the same allocator, zeroed (the arenas are filled
 * with garbage first), freed with the registered deallocator (at the
 * reverse of the allocation in reverse mode, beside the primal's free in
 * forward mode). A bump allocator over an arena with the size second and
 * the arena passed to its deallocator ("0,-1"), and a counting allocator
 * over malloc ("-1"), whose count must come back to zero. Gradients
 * (combined and split) against closed forms and central differences,
 * tangents against gradients. */
#include "rev_check.h"

#include <stdlib.h>

extern int enzyme_const;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

typedef struct {
  char bytes[4096];
  size_t used;
  int frees;
} arena;
__attribute__((noinline)) void *arena_alloc(arena *a, size_t n) {
  void *p = a->bytes + a->used;
  a->used += (n + 15) & ~(size_t)15;
  return p;
}
__attribute__((noinline)) void arena_free(arena *a, void *p) {
  (void)p;
  ++a->frees;
}
void *__enzyme_allocation_like[4] = {(void *)arena_alloc, (void *)1,
                                     (void *)"0,-1", (void *)arena_free};

static int live;
__attribute__((noinline)) void *counted_alloc(size_t n) {
  ++live;
  void *p = malloc(n);
  memset(p, 0x7f, n); /* garbage: the shadow must be cleared */
  return p;
}
__attribute__((noinline)) void counted_free(void *p) {
  --live;
  free(p);
}
void *__enzyme_allocation_like_counted[4] = {
    (void *)counted_alloc, (void *)0, (void *)"-1", (void *)counted_free};

static arena A;

/* sum_i (x_i^2 + x_{i+1})^2 / 2 through an arena temporary */
static double energy(const double *x, int n) {
  double *t = (double *)arena_alloc(&A, n * sizeof(double));
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i] + (i + 1 < n ? x[i + 1] : 0);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += 0.5 * t[i] * t[i];
  arena_free(&A, t);
  return s;
}
/* prod (1 + x_i) sin x_0 through a counted temporary */
static double product(const double *x, int n) {
  double *t = (double *)counted_alloc((n + 1) * sizeof(double));
  t[0] = sin(x[0]);
  for (int i = 0; i < n; ++i)
    t[i + 1] = t[i] * (1 + x[i]);
  double r = t[n];
  counted_free(t);
  return r;
}
static double energy4(const double *x) { return energy(x, 4); }
static double product4(const double *x) { return product(x, 4); }

static void energy_grad(const double *x, int n, double *g) {
  for (int i = 0; i < n; ++i)
    g[i] = 0;
  for (int i = 0; i < n; ++i) {
    double t = x[i] * x[i] + (i + 1 < n ? x[i + 1] : 0);
    g[i] += t * 2 * x[i];
    if (i + 1 < n)
      g[i + 1] += t;
  }
}

int main(void) {
  double x[4] = {0.3, -0.7, 1.1, 0.4}, want[4], v[4];
  memset(A.bytes, 0x7f, sizeof A.bytes); /* garbage */
  energy_grad(x, 4, want);
  { /* reverse mode; forward mode: the same directional derivative */
    double g[4] = {0};
    int frees = A.frees;
    __enzyme_autodiff((void *)energy, x, g, enzyme_const, 4);
    CHECK_TRUE(A.frees == frees + 2); /* the block and its shadow */
    rev_check_grad(__FILE__, __LINE__, "energy", energy4, x, 4, g, want,
                   REV_TOL_FD);
    double dot = rev_dir(g, v, 4);
    frees = A.frees;
    double dir = __enzyme_fwddiff((void *)energy, x, v, enzyme_const, 4);
    CHECK_TRUE(A.frees == frees + 2);
    CHECK_CLOSE(dir, dot, REV_TOL_DOT);
  }
  { /* split mode */
    double g[4] = {0};
    int frees = A.frees;
    void *t = __enzyme_augmentfwd((void *)energy, x, g, enzyme_const, 4);
    CHECK_TRUE(A.frees == frees + 1); /* the primal block only */
    __enzyme_reverse((void *)energy, x, g, enzyme_const, 4, 1.0, t);
    CHECK_TRUE(A.frees == frees + 2);
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE(g[i], want[i], REV_TOL_EXACT);
  }
  {
    double g[4] = {0}, p[4];
    double s0 = sin(x[0]), c0 = cos(x[0]);
    for (int i = 0; i < 4; ++i) {
      p[i] = s0;
      for (int j = 0; j < 4; ++j)
        if (j != i)
          p[i] *= 1 + x[j];
    }
    p[0] += c0 * (1 + x[0]) * (1 + x[1]) * (1 + x[2]) * (1 + x[3]);
    __enzyme_autodiff((void *)product, x, g, enzyme_const, 4);
    CHECK_TRUE(live == 0);
    rev_check_grad(__FILE__, __LINE__, "product", product4, x, 4, g, p,
                   REV_TOL_FD);
    double dot = rev_dir(g, v, 4);
    double dir = __enzyme_fwddiff((void *)product, x, v, enzyme_const, 4);
    CHECK_CLOSE(dir, dot, REV_TOL_DOT);
    CHECK_TRUE(live == 0);
  }
  return check_finish();
}
