// adfuzz version 29 seed 125, reduced: SILENT wrong second derivative.
// Forward over reverse (__enzyme_fwddiff of a function that calls
// __enzyme_autodiff) of a function that stores doubles over a pool
// block's link (a packed struct's `void *` at byte 4, so that the link's
// low bits lie under the first double's exponent). The gradient is right
// at every level; the Hessian is 2e167 or -6e282 at -O0 (the addresses'
// bits) and -6e125 at -O1 for the
// exact 22.2 (right at -O2, where the pool is optimized away): the
// tangent of the link's shadow was read as the tangent of the double's
// adjoint, forward mode running the marks of pointers' shadows on the
// shadows only. Fixed on 2026-12-07 (docs/forward-mode.md, "Forward over
// reverse over memory reused"; e2e hvp_pool_links.c).
//   adcc -O0 v29_hvp_pool_links.c -lm && ./a.out   (want hess = 22.2)
#include <stdio.h>
extern int enzyme_dup, enzyme_out, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

struct __attribute__((packed)) lnk4 {
  unsigned tag;
  void *next;
};
struct pool {
  void *head;
  _Alignas(16) unsigned char mem[4][32];
};
static void pool_init(struct pool *pl) {
  pl->head = 0;
  for (int i = 3; i >= 0; i--) {
    ((struct lnk4 *)pl->mem[i])->next = pl->head;
    pl->head = pl->mem[i];
  }
}
static void *take(struct pool *pl) {
  void *b = pl->head;
  pl->head = ((struct lnk4 *)b)->next;
  return b;
}
static void give(struct pool *pl, void *b) {
  ((struct lnk4 *)b)->next = pl->head;
  pl->head = b;
}
static double f(double x) {
  struct pool pl;
  pool_init(&pl);
  void *b = take(&pl);
  double *d = (double *)b;
  d[0] = x * x;
  d[1] = 3 * x;
  double t = d[0] * x + d[1] * d[1];  // x^3 + 9 x^2
  give(&pl, b);
  return t;
}
static double df(double x) { return __enzyme_autodiff((void *)f, x); }
int main(void) {
  double x = 0.7;
  double g = df(x);
  double h = __enzyme_fwddiff((void *)df, x, 1.0);
  printf("f %g grad %g (exact %g) hess %g (exact %g)\n", f(x), g,
         3 * x * x + 18 * x, h, 6 * x + 18);
  return 0;
}
