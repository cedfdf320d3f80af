// Issue 33, a caller's link that the request never reads, where the file
// that converts the linked record's pointer to a pointer to a record of
// numbers is another one (link.c: `pl->obj = (struct obj *)&nodes[1]`):
// the differentiating file's entries say nothing of that conversion, with
// or without -fadcc-cross-tu (the derivative is made where it is
// requested). A record of which the file records no pointer may be such a
// record: a number stored through a pointer to it read from memory starts
// its adjoint from zero where the shadow bytes read as an address. Before,
// the float's adjoint was the link's shadow (33555564 for 12) at -O0..-O3.
// The shadow pool lies on a page at an address whose low 32 bits, read as
// a float, are 2^23 or more.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -I%S/../../e2e main.c link.c -o prog0 -lm && ./prog0 | FileCheck %s
// RUN: %adcc -O1 -I%S/../../e2e main.c link.c -o prog1 -lm && ./prog1 | FileCheck %s
// RUN: %adcc -O2 -I%S/../../e2e main.c link.c -o prog2 -lm && ./prog2 | FileCheck %s
// RUN: %adcc -O3 -I%S/../../e2e main.c link.c -o prog3 -lm && ./prog3 | FileCheck %s
// RUN: %adcc -O2 -fno-adcc-cross-tu -I%S/../../e2e main.c link.c -o one2 -lm
// RUN: ./one2 | FileCheck %s
// CHECK: 0 wrong

//--- pool.h
#include "unread_links_nodes.h" // struct node (a link or a float), struct obj
struct pool {
  struct obj *obj; // &nodes[1], converted in link.c
  struct node nodes[3];
};
void link_pool(struct pool *pl);

//--- link.c
#include "pool.h"
#include <string.h>
void link_pool(struct pool *pl) {
  memset(pl, 0, sizeof *pl);
  for (int i = 0; i < 3; ++i)
    pl->nodes[i].next = &pl->nodes[(i + 1) % 3];
  pl->obj = (struct obj *)&pl->nodes[1];
}

//--- main.c
#include "large_bits_page.h"
#include "pool.h"
#include <stdio.h>
#include <stdlib.h>
extern int enzyme_dup;
float __enzyme_autodiff(void *, ...);
/* r = 3 x^2, dr/dx = 6x */
static float store_obj(struct pool *pl, float *p) {
  pl->obj->v = p[0] * p[0];
  return 3 * pl->obj->v;
}
int main(void) {
  char *page = large_bits_page();
  struct pool pl, *dpl = page ? (struct pool *)(page + 256) : malloc(sizeof pl);
  float p[1] = {2}, dp[1] = {0};
  int wrong = 0;
  for (int run = 0; run < 3; ++run) {
    if (run < 2) {
      link_pool(&pl);
      link_pool(dpl);
    }
    dp[0] = 0;
    __enzyme_autodiff((void *)store_obj, enzyme_dup, &pl, dpl, enzyme_dup, p,
                      dp);
    if (dp[0] != 12.0f)
      printf("run %d: %g, expected 12\n", run, dp[0]);
    wrong += dp[0] != 12.0f;
  }
  printf("%d wrong\n", wrong);
  return 0;
}
