/* The checks of the tests of a caller's links that the request never reads
 * (issue 33: rev_unread_links*.c). The including file defines `struct
 * pool` and `void link_pool(struct pool *)`, which links a pool (and, given
 * the shadow pool on a page from large_bits_page.h, its shadow pool alike);
 * check runs a function of the pool and a float in forward and reverse
 * mode, against central differences and the exact derivative, on the
 * first call and over repeated ones. */
#ifndef ADCC_E2E_UNREAD_LINKS_CHECK_H
#define ADCC_E2E_UNREAD_LINKS_CHECK_H

#include "check.h"
#include "large_bits_page.h"

extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);

typedef float (*pool_fn)(struct pool *, float *);

static float central(pool_fn f, float *p) {
  struct pool pl;
  float keep = p[0], h = 1e-2f;
  link_pool(&pl);
  p[0] = keep + h;
  double up = f(&pl, p);
  link_pool(&pl);
  p[0] = keep - h;
  double down = f(&pl, p);
  p[0] = keep;
  return (float)((up - down) / (2 * h));
}

static void check(const char *name, pool_fn f, float *p, struct pool *dpl,
                  double exact) {
  int failures = check_failures;
  struct pool pl, fpl, tpl;
  link_pool(&fpl);
  link_pool(&tpl);
  float t[1] = {1};
  float fwd = __enzyme_fwddiff((void *)f, enzyme_dup, &fpl, &tpl, enzyme_dup,
                               p, t);
  CHECK_CLOSE(fwd, exact, 1e-5);
  CHECK_CLOSE(central(f, p), exact, 1e-2);
  for (int run = 0; run < 3; ++run) {
    // (A pool main linked afresh, then the pool the last call left.)
    if (run < 2) {
      link_pool(&pl);
      link_pool(dpl);
    }
    float dq[1] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, &pl, dpl, enzyme_dup, p, dq);
    CHECK_CLOSE(dq[0], exact, 1e-5);
    CHECK_CLOSE(dq[0], fwd, 1e-5);
  }
  if (check_failures != failures)
    printf("  (in %s)\n", name);
}
#define CHECK_CASE(f, exact) check(#f, f, p, dpl, exact)

/* The shadow pool, on the page; null (the test skipped) without one. */
static struct pool *shadow_pool(void) {
  char *page = large_bits_page();
  if (!page)
    printf("skipped: no page at a fixed address\n");
  return page ? (struct pool *)(page + 256) : NULL;
}

#endif
