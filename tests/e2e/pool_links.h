/* A caller's pool of 32-byte blocks linked through a packed `void *` at
 * byte 2 (the high bits of an address under the first double's
 * exponent), and fc, x^3 + 9 x^2, which takes two blocks from it, stores
 * numbers over the links and gives them back: shared by hvp_pool_links.c
 * (part C) and rr_pool_links_kept.c. */
#ifndef ADCC_E2E_POOL_LINKS_H
#define ADCC_E2E_POOL_LINKS_H

#include "rev_check.h"

struct __attribute__((packed)) lnk2 {
  unsigned short tag;
  void *next;
};
struct pool {
  void *head;
  _Alignas(16) unsigned char mem[4][32];
};

static void pool2_init(struct pool *pl) {
  pl->head = 0;
  for (int i = 3; i >= 0; i--) {
    ((struct lnk2 *)pl->mem[i])->next = pl->head;
    pl->head = pl->mem[i];
  }
}
static void *take2(struct pool *pl) {
  void *b = pl->head;
  pl->head = ((struct lnk2 *)b)->next;
  return b;
}
static void give2(struct pool *pl, void *b) {
  ((struct lnk2 *)b)->next = pl->head;
  pl->head = b;
}

/* x^3 + 9 x^2, e's numbers stored over the link d's give wrote */
static double fc(struct pool *pl, double x) {
  double *d = (double *)take2(pl);
  double *e = (double *)take2(pl);
  d[0] = x * x;
  d[1] = 3 * x;
  e[0] = d[0] * x;
  e[1] = d[1] * d[1];
  give2(pl, d);
  double t = e[0] + e[1];
  give2(pl, e);
  return t;
}
static double grad_c(struct pool *pl, struct pool *dpl, double x) {
  return __enzyme_autodiff((void *)fc, enzyme_dup, pl, dpl, x);
}

#endif
