/* Batched split mode: enzyme_width, W with __enzyme_augmentfwd and
 * __enzyme_reverse. One augmented sweep records for W lanes; the reverse
 * sweep takes W seeds (one value per lane, after the arguments) and
 * returns W adjoints per active scalar. An active scalar and a duplicated
 * array, seeds 1 and 2.5; the rows of a Jacobian (an output array with
 * enzyme_dupnoneed and one seeded shadow per lane); a pointer result
 * returned with its W shadows. Checked against width-1 __enzyme_autodiff,
 * closed forms and central differences. */
#include "split_check.h"

extern int enzyme_width, enzyme_const, enzyme_dupnoneed;
typedef struct {
  double d[2];
} two;
two __enzyme_reverse2(void *, ...);
typedef struct {
  void *tape;
  double *r, *s0, *s1;
} tape_result_shadows;
tape_result_shadows __enzyme_augmentfwd_trs(void *, ...);

static double f(double a, const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sin(a * p[i]);
  return s * a;
}
static double A = 0.7;
static double f_of_p(const double *p) { return f(A, p, 3); }
static void g(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = sin(x[0]) + x[1] * x[1];
}
static double *h(double *x) {
  x[1] *= x[0];
  return x + 1;
}

int main(void) {
  double p[3] = {0.5, 1.5, -1}, a = A;
  { /* an active scalar and an array, seeds 1 and 2.5 */
    double dp0[3] = {0}, dp1[3] = {0}, dq[3] = {0}, want[3];
    double s = 0, ds = 0;
    for (int i = 0; i < 3; ++i) {
      s += sin(a * p[i]);
      ds += cos(a * p[i]) * p[i];
      want[i] = a * a * cos(a * p[i]);
    }
    tape_result t = __enzyme_augmentfwd_tr((void *)f, enzyme_width, 2, a, p,
                                           dp0, dp1, enzyme_const, 3);
    CHECK_CLOSE(t.r, f(a, p, 3), REV_TOL_EXACT);
    two da = __enzyme_reverse2((void *)f, enzyme_width, 2, a, p, dp0, dp1,
                               enzyme_const, 3, 1.0, 2.5, t.tape);
    double da1 = __enzyme_autodiff((void *)f, a, p, dq, 3);
    CHECK_CLOSE(da.d[0], s + a * ds, REV_TOL_EXACT);
    CHECK_CLOSE(da.d[0], da1, REV_TOL_EXACT);
    CHECK_CLOSE(da.d[1], 2.5 * da1, REV_TOL_EXACT);
    rev_check_grad(__FILE__, __LINE__, "lane 0", f_of_p, p, 3, dp0, want,
                   REV_TOL_FD);
    for (int i = 0; i < 3; ++i) {
      CHECK_CLOSE(dp0[i], dq[i], REV_TOL_EXACT);
      CHECK_CLOSE(dp1[i], 2.5 * dq[i], REV_TOL_EXACT);
    }
  }
  { /* the rows of g's Jacobian, inputs overwritten between the sweeps */
    double x[2] = {0.3, 1.2}, y[2], g0[2] = {0}, g1[2] = {0};
    double e0[2] = {1, 0}, e1[2] = {0, 1};
    void *t = __enzyme_augmentfwd((void *)g, enzyme_width, 2, x, g0, g1,
                                  enzyme_dupnoneed, y, e0, e1);
    double x0 = x[0], x1 = x[1];
    x[0] = x[1] = 100;
    __enzyme_reverse_v((void *)g, enzyme_width, 2, x, g0, g1,
                       enzyme_dupnoneed, y, e0, e1, t);
    CHECK_CLOSE(g0[0], x1, REV_TOL_EXACT);
    CHECK_CLOSE(g0[1], x0, REV_TOL_EXACT);
    CHECK_CLOSE(g1[0], cos(x0), REV_TOL_EXACT);
    CHECK_CLOSE(g1[1], 2 * x1, REV_TOL_EXACT);
  }
  { /* a pointer result and its two shadows */
    double z[2] = {1.5, 2}, dz0[2] = {0}, dz1[2] = {0};
    tape_result_shadows r =
        __enzyme_augmentfwd_trs((void *)h, enzyme_width, 2, z, dz0, dz1);
    CHECK_TRUE(r.r == z + 1 && r.s0 == dz0 + 1 && r.s1 == dz1 + 1);
    *r.s0 += 1;
    *r.s1 += 2;
    __enzyme_reverse_v((void *)h, enzyme_width, 2, z, dz0, dz1, r.tape);
    CHECK_CLOSE(dz0[0], 2, REV_TOL_EXACT);
    CHECK_CLOSE(dz0[1], 1.5, REV_TOL_EXACT);
    CHECK_CLOSE(dz1[0], 4, REV_TOL_EXACT);
    CHECK_CLOSE(dz1[1], 3, REV_TOL_EXACT);
  }
  return check_finish();
}
