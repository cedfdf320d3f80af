/* A pointer kept as intptr_t in a local struct and read back. */
#include <math.h>
#include <stdint.h>
struct box {
  intptr_t a;
  int n;
};
__attribute__((noinline)) static double use(const struct box *b) {
  const double *p = (const double *)b->a;
  double s = 0;
  for (int i = 0; i < b->n; ++i)
    s += p[i] * p[i] * p[i];
  return s;
}
static double f(double *x) {
  struct box b = {(intptr_t)x, 3};
  return use(&b);
}
#include "probe.h"
