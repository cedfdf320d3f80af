/* Batched reverse mode: __enzyme_autodiff with enzyme_width W (and
 * ADCC_REVERSE_BATCH) carries W
 * adjoints through one augmented sweep and one reverse sweep (W shadows
 * after each duplicated pointer, enzyme_dupv for shadows in one array, W
 * adjoints per active scalar).  Each lane is checked against a width-1
 * gradient with the same seed, the rows of a Jacobian against central
 * differences, through user calls (with loops, recursion and pointer
 * results), local arrays, heap blocks (malloc, realloc, free), copies,
 * pointers loaded from memory and sin/cos pairs. */
#include "rev_check.h"

#include <adcc.h>
#include <stdlib.h>

extern int enzyme_dupv;
typedef struct {
  double d[2];
} lanes2;
typedef struct {
  double a[3], b[3];
} lanes3x2;
lanes2 __enzyme_autodiff_l2(void *, ...);
lanes3x2 __enzyme_autodiff_l3x2(void *, ...);

#define NX 4
#define NY 3

static double poly(const double *p, int k) {
  return k == 0 ? p[0] : p[0] * p[k] + poly(p, k - 1) * 0.5;
}
static double *pick(double *a, double *b, int which) {
  return which ? a : b; /* a pointer result: shadows per lane */
}
typedef struct {
  double *data;
  int n;
} vec;
static double vsum(const vec *v) {
  double s = 0;
  for (int i = 0; i < v->n; ++i)
    s += v->data[i] * v->data[i];
  return s;
}

/* y = F(x): three outputs mixing everything the lanes must keep apart */
static void F(const double *x, double *y) {
  double t[NX]; /* a local array: a shadow per lane on the tape */
  memcpy(t, x, sizeof t);
  double *h = malloc(2 * sizeof *h);
  h[0] = t[0] * t[1];
  h = realloc(h, 4 * sizeof *h);
  h[1] = sin(t[2]);
  h[2] = cos(t[2]) * t[3];
  for (int r = 0; r < 3; ++r) /* overwrites t: per-iteration records */
    for (int i = 0; i < NX; ++i)
      t[i] = t[i] * 0.9 + 0.1 * t[(i + 1) % NX] * t[i];
  vec v = {t, NX};
  double *q = pick(t, h, x[0] > 0);
  y[0] = vsum(&v) + h[0] * h[1];
  y[1] = poly(t, 3) + q[1] * h[2];
  y[2] = exp(h[0]) - t[3] * h[1];
  free(h);
}
static double F0(const double *x) {
  double y[NY];
  F(x, y);
  return y[0];
}
static double F1(const double *x) {
  double y[NY];
  F(x, y);
  return y[1];
}
static double F2(const double *x) {
  double y[NY];
  F(x, y);
  return y[2];
}

/* s(a, b, x) = a^2 x0 + sin(a) b x1: two active scalars, one array */
static double s(double a, double b, const double *x) {
  return a * a * x[0] + sin(a) * b * x[1];
}

/* The annotation: W shadows per Duplicated pointer, W seeds for an Active
 * result, W adjoints per Active parameter (in the result struct). */
ADCC_REVERSE_BATCH(d_hb, 2, Duplicated, Active, Active)
double hb(const double *x, double a) { return x[0] * a * a + sin(x[1] * a); }
ADCC_REVERSE_BATCH(d_vb, 3, Duplicated, Duplicated)
void vb(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = exp(x[0]);
  y[2] = x[1] / x[0];
}

int main(void) {
  double x[NX] = {0.6, -0.8, 1.1, 0.4}, y[NY];
  /* the Jacobian, row by row (width 1) */
  double J[NY][NX] = {{0}};
  for (int k = 0; k < NY; ++k) {
    double dy[NY] = {0};
    dy[k] = 1;
    __enzyme_autodiff((void *)F, enzyme_dup, x, J[k], enzyme_dupnoneed, y, dy);
  }
  CHECK_GRAD(F0, x, NX, J[0], NULL);
  CHECK_GRAD(F1, x, NX, J[1], NULL);
  CHECK_GRAD(F2, x, NX, J[2], NULL);
  {
    /* all three rows in one call, width 3 */
    double r0[NX] = {0}, r1[NX] = {0}, r2[NX] = {0};
    double s0[NY] = {1, 0, 0}, s1[NY] = {0, 1, 0}, s2[NY] = {0, 0, 1};
    __enzyme_autodiff((void *)F, enzyme_width, 3, enzyme_dup, x, r0, r1, r2,
                      enzyme_dupnoneed, y, s0, s1, s2);
    /* what the width-1 calls gave (to rounding: adjoint sums may be
     * reassociated differently in the two derivatives) */
    for (int i = 0; i < NX; ++i) {
      CHECK_CLOSE(r0[i], J[0][i], REV_TOL_EXACT);
      CHECK_CLOSE(r1[i], J[1][i], REV_TOL_EXACT);
      CHECK_CLOSE(r2[i], J[2][i], REV_TOL_EXACT);
    }
  }
  {
    /* width 2 with enzyme_dupv: the shadows of x in one array, those of
     * y in another; lane 1 seeds a combination of the outputs */
    double rx[2][NX] = {{0}}, ry[2][NY] = {{0, 1, 0}, {2, 0, -1}};
    __enzyme_autodiff((void *)F, enzyme_width, 2, enzyme_dupv, sizeof rx[0], x,
                      rx, enzyme_dupv, sizeof ry[0], y, ry);
    for (int i = 0; i < NX; ++i) {
      CHECK_CLOSE(rx[0][i], J[1][i], REV_TOL_EXACT);
      CHECK_CLOSE(rx[1][i], 2 * J[0][i] - J[2][i], REV_TOL_EXACT);
    }
    /* the seeds are consumed */
    for (int k = 0; k < NY; ++k)
      CHECK_CLOSE(ry[0][k] + ry[1][k], 0, 0);
  }
  {
    /* active scalars: W adjoints each; the result seeded 1 in every lane,
     * the shadows of x receive the gradient in each lane */
    double gx0[2] = {0}, gx1[2] = {0}, xs[2] = {1.5, -2.5};
    lanes2 da =
        __enzyme_autodiff_l2((void *)s, enzyme_width, 2, enzyme_out, 0.3,
                             enzyme_const, 0.7, enzyme_dup, xs, gx0, gx1);
    double want = 2 * 0.3 * xs[0] + cos(0.3) * 0.7 * xs[1];
    CHECK_CLOSE(da.d[0], want, REV_TOL_EXACT);
    CHECK_CLOSE(da.d[1], want, REV_TOL_EXACT);
    CHECK_CLOSE(gx0[0], 0.09, REV_TOL_EXACT);
    CHECK_CLOSE(gx1[1], sin(0.3) * 0.7, REV_TOL_EXACT);
    lanes3x2 d3 =
        __enzyme_autodiff_l3x2((void *)s, enzyme_width, 3, enzyme_out, 0.3,
                               enzyme_out, 0.7, enzyme_const, xs);
    for (int l = 0; l < 3; ++l) {
      CHECK_CLOSE(d3.a[l], want, REV_TOL_EXACT);
      CHECK_CLOSE(d3.b[l], sin(0.3) * xs[1], REV_TOL_EXACT);
    }
  }
  {
    double x2[2] = {0.8, -1.3}, d0[2] = {0}, d1[2] = {0}, a = 0.6;
    struct __adcc_d_hb_result r = d_hb(x2, d0, d1, a, 1.0, -2.0);
    CHECK_CLOSE(r.primal, hb(x2, a), 0);
    double ca = cos(x2[1] * a);
    double da = 2 * x2[0] * a + ca * x2[1];
    CHECK_CLOSE(r.d_a[0], da, REV_TOL_EXACT);
    CHECK_CLOSE(r.d_a[1], -2 * da, REV_TOL_EXACT);
    CHECK_CLOSE(d0[0], a * a, REV_TOL_EXACT);
    CHECK_CLOSE(d0[1], ca * a, REV_TOL_EXACT);
    CHECK_CLOSE(d1[0], -2 * a * a, REV_TOL_EXACT);
    CHECK_CLOSE(d1[1], -2 * ca * a, REV_TOL_EXACT);
    /* the three rows of vb's Jacobian at once */
    double y3[3], g0[2] = {0}, g1[2] = {0}, g2[2] = {0};
    double s0[3] = {1, 0, 0}, s1[3] = {0, 1, 0}, s2[3] = {0, 0, 1};
    d_vb(x2, g0, g1, g2, y3, s0, s1, s2);
    CHECK_CLOSE(g0[0], x2[1], REV_TOL_EXACT);
    CHECK_CLOSE(g0[1], x2[0], REV_TOL_EXACT);
    CHECK_CLOSE(g1[0], exp(x2[0]), REV_TOL_EXACT);
    CHECK_CLOSE(g1[1], 0, 0);
    CHECK_CLOSE(g2[0], -x2[1] / (x2[0] * x2[0]), REV_TOL_EXACT);
    CHECK_CLOSE(g2[1], 1 / x2[0], REV_TOL_EXACT);
  }
  return check_finish();
}
