/* Variadic constructors as KANN writes them: `feed(int n_d, ...)` hands its
 * va_list of dimensions to a helper that reads them with va_arg and
 * allocates the node, and `model(node *cost, int n_rest, ...)` reads its
 * variable arguments but is called with none. The function differentiated
 * builds its nodes through both; the extras are integers, so no derivative
 * goes through the list: each call calls a specialization
 * (prepare/VariadicCalls.cpp). Until 2026-12-07 both were refused at -O0
 * ("calls to the variadic function"). Reverse and forward mode against the
 * analytic gradient. */
#include "check.h"

#include <stdarg.h>
#include <stdlib.h>

typedef struct node {
  int n_d, d[4];
  double *x;
} node;

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static node *vleaf(double *x, int n_d, va_list ap) {
  node *p = calloc(1, sizeof *p);
  p->n_d = n_d;
  for (int i = 0; i < n_d; ++i)
    p->d[i] = va_arg(ap, int);
  p->x = x;
  return p;
}

__attribute__((noinline)) static node *leaf(double *x, int n_d, ...) {
  va_list ap;
  va_start(ap, n_d);
  node *p = vleaf(x, n_d, ap);
  va_end(ap);
  return p;
}

__attribute__((noinline)) static int model(node *cost, int n_rest, ...) {
  va_list ap;
  int len = cost->d[0] * cost->d[1];
  va_start(ap, n_rest);
  for (int i = 0; i < n_rest; ++i)
    len += va_arg(ap, node *)->d[0];
  va_end(ap);
  return len;
}

static double loss(double *x) {
  node *p = leaf(x, 2, 2, 3);
  int len = model(p, 0);
  double s = 0;
  for (int i = 0; i < len; ++i)
    s += p->x[i] * p->x[i] * (i + 1);
  free(p);
  return s;
}

int main(void) {
  double x[6] = {0.5, -1, 2, 0.25, 3, -0.75}, g[6] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, g);
  for (int i = 0; i < 6; ++i) {
    double dx[6] = {0};
    dx[i] = 1;
    CHECK_CLOSE(g[i], 2 * x[i] * (i + 1), 1e-12);
    CHECK_CLOSE(__enzyme_fwddiff((void *)loss, enzyme_dup, x, dx), g[i],
                1e-12);
  }
  return check_finish();
}
