// A heap block the differentiated function allocates and fills with
// numbers only (its address going to loads, stores and free) is not
// checked for pointer-shadow marks at each store since 2026-12-07
// (analysis/PrivateBlocks.h), so its loops vectorize: a triangular
// product into a malloc'd array (GMM's Q x), and a calloc'd prefix sum.
// Gradients against the analytic ones, central differences and forward
// mode, -O0 to -O3.
#include "check.h"

#include <stdlib.h>

double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;

#define D 7
#define NL (D * (D - 1) / 2)
#define NX (D + NL)

/* |L x|^2 / 2 with L lower triangular, diagonal 2, strict part l (column
   by column), x = v[0..D), l = v[D..). (2 x[j], not a copy of x, which
   the optimizer makes a memcpy into the block: a call, checked.) */
__attribute__((noinline)) double tri(const double *v, int d) {
  const double *x = v, *l = v + d;
  double *q = malloc(d * sizeof(double));
  double *s = calloc(d, sizeof(double));
  for (int j = 0; j < d; j++)
    q[j] = 2 * x[j];
  int li = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++)
      q[r] += l[li++] * x[c];
  for (int j = 0; j < d; j++)
    s[j] = (j ? s[j - 1] : 0) + q[j] * q[j];
  double out = 0.5 * s[d - 1];
  free(q);
  free(s);
  return out;
}

static void analytic(const double *v, int d, double *g) {
  const double *x = v, *l = v + d;
  double q[D];
  for (int j = 0; j < d; j++)
    q[j] = 2 * x[j];
  int li = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++)
      q[r] += l[li++] * x[c];
  for (int j = 0; j < d; j++)
    g[j] = 2 * q[j]; /* the diagonal */
  li = 0;
  for (int c = 0; c < d; c++)
    for (int r = c + 1; r < d; r++) {
      g[c] += l[li] * q[r];
      g[d + li] = q[r] * x[c];
      li++;
    }
}

int main(void) {
  double v[NX], g[NX] = {0}, want[NX];
  for (int i = 0; i < NX; i++)
    v[i] = 0.3 * ((i * 7) % 11) - 1.1;
  __enzyme_autodiff((void *)tri, enzyme_dup, v, g, enzyme_const, D);
  analytic(v, D, want);
  for (int i = 0; i < NX; i++) {
    double vp[NX], vm[NX], dv[NX] = {0}, h = 1e-6;
    for (int k = 0; k < NX; k++)
      vp[k] = vm[k] = v[k];
    vp[i] += h;
    vm[i] -= h;
    dv[i] = 1;
    double fd = (tri(vp, D) - tri(vm, D)) / (2 * h);
    double fwd = __enzyme_fwddiff((void *)tri, enzyme_dup, v, dv, enzyme_const, D);
    CHECK_CLOSE(g[i], want[i], 1e-12);
    CHECK_CLOSE(g[i], fd, 1e-7);
    CHECK_CLOSE(fwd, g[i], 1e-12);
  }
  return check_finish();
}
