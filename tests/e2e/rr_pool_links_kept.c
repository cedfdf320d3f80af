/* Reverse over reverse (the gradient of grad_c, which calls
 * __enzyme_autodiff on fc) of a function that takes two blocks from the
 * caller's pool and gives them back, a number stored over the link that
 * the first block's give wrote (pool_links.h; hvp_pool_links.c part C
 * makes fresh pools for each call). The pool, its shadow pool and their
 * two adjoint pools are kept from call to call, as a program that keeps
 * its allocator between derivatives does. The inner request's end puts
 * the links of the shadow pool back (runtime calls, which the outer
 * request does not differentiate); the outer request's end must put the
 * links of the adjoint pool of the shadow pool back too
 * (docs/reverse-mode.md, "Shadows of memory reused"). Until 2026-12-07 it
 * left numbers there: the Hessians 22.2 and 10.2 right, then 8.4 for 30.6
 * at -O0; a crash in the second call from -O1.
 *
 * Part A: one inner request per outer request. Part B: two inner requests
 * on the same pools in one outer request, the second storing numbers over
 * the links the first one's end put back. After each call every pool must
 * be a well-formed free list (four blocks in it), and the Hessian must be
 * its closed form and central differences of the gradient, computed by
 * reverse mode on pools of their own (kept too). */
#include "pool_links.h"

#define TOL_FD 1e-6

/* The number of distinct blocks of pl's free list, walking at most 5
 * links, each within pl->mem (-1: a link outside it). */
static int free_blocks(const struct pool *pl) {
  int n = 0;
  for (const unsigned char *b = pl->head; b && n < 5; ++n) {
    if (b < pl->mem[0] || b > pl->mem[3] || (b - pl->mem[0]) % 32)
      return -1;
    void *next;
    memcpy(&next, b + 2, sizeof next);
    b = next;
  }
  return n;
}

/* Every pool of `pools` holds its four blocks. */
static int pools_whole(struct pool *const *pools, int n, int line) {
  int whole = 1;
  for (int k = 0; k < n; ++k) {
    int blocks = free_blocks(pools[k]);
    if (blocks != 4) {
      printf("FAIL %s:%d: pool %d holds %d blocks, expected 4\n", __FILE__,
             line, k, blocks);
      ++check_failures;
      whole = 0;
    }
  }
  return whole;
}

/* f'(x) + f'(2 x): two inner requests on the same pools */
static double grad_twice(struct pool *pl, struct pool *dpl, double x) {
  return grad_c(pl, dpl, x) + grad_c(pl, dpl, 2 * x);
}

/* the gradients for the central differences, on pools of their own */
static struct pool gpc, gdpc;
static double grad_at(const double *v) { return grad_c(&gpc, &gdpc, v[0]); }
static double grad_twice_at(const double *v) {
  return grad_twice(&gpc, &gdpc, v[0]);
}

static struct pool pc, dpc, apc, adpc;

static void check(void *grad, double (*grad_of)(const double *),
                  double (*exact)(double)) {
  struct pool *kept[] = {&pc, &dpc, &apc, &adpc, &gpc, &gdpc};
  for (int k = 0; k < 6; ++k)
    pool2_init(kept[k]);
  const double points[] = {0.7, -1.3, 2.1, 0.7, 1.5};
  for (unsigned p = 0; p < sizeof points / sizeof points[0]; ++p) {
    double x = points[p];
    double h = __enzyme_autodiff(grad, enzyme_dup, &pc, &apc, enzyme_dup,
                                 &dpc, &adpc, x);
    CHECK_CLOSE(h, exact(x), REV_TOL_EXACT);
    double v[1] = {x};
    CHECK_CLOSE(fd_partial(grad_of, v, 0), exact(x), TOL_FD);
    /* (Walking a broken list further would crash.) */
    if (!pools_whole(kept, 6, __LINE__))
      break;
  }
}

static double hessian_c(double x) { return 6 * x + 18; }
static double hessian_twice(double x) { return 30 * x + 54; }

int main(void) {
  check((void *)grad_c, grad_at, hessian_c);
  check((void *)grad_twice, grad_twice_at, hessian_twice);
  return check_finish();
}
