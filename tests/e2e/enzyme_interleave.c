/* The interleaved argument form of Enzyme calls (as MFEM writes them): the
 * primals with their activity markers, then enzyme_interleave, then the
 * shadows of the duplicated ones in the same order.  A marker holds for
 * the primals after it until the next marker.  Forward mode (with width 2
 * and enzyme_dupv too) and reverse mode, against closed forms, central
 * differences and the ordinary form. */
#include "rev_check.h"

extern int enzyme_interleave, enzyme_dupv;

/* r = sum_i a[i] * b[i] * s, scaled by k (an int) */
static double weighted(const double *a, const double *b, double s, int k) {
  double r = 0;
  for (int i = 0; i < 3; ++i)
    r += a[i] * b[i] * s;
  return r * k;
}

/* y[i] = c * x[i]^2 (c constant) */
static void square_into(const double *x, double *y, double c) {
  for (int i = 0; i < 3; ++i)
    y[i] = c * x[i] * x[i];
}

static double weighted_arr(const double *v) {
  return weighted(v, v + 3, v[6], 2);
}

typedef struct {
  double lane[2];
} two_tangents;
two_tangents __enzyme_fwddiff2(void *, ...);

int main(void) {
  double a[3] = {0.5, -1.5, 2.0}, b[3] = {1.25, 0.75, -0.5}, s = 1.5;
  double da[3] = {1, 0, 0.5}, db[3] = {0, 2, 1}, ds = 0.25;
  /* forward: one sticky enzyme_dup for a, b and s */
  double t = __enzyme_fwddiff((void *)weighted, enzyme_dup, a, b, s,
                              enzyme_const, 2, enzyme_interleave, da, db, ds);
  double want = __enzyme_fwddiff((void *)weighted, enzyme_dup, a, da,
                                 enzyme_dup, b, db, enzyme_dup, s, ds,
                                 enzyme_const, 2);
  CHECK_CLOSE(t, want, 1e-15);
  double exact = 0;
  for (int i = 0; i < 3; ++i)
    exact += (da[i] * b[i] * s + a[i] * db[i] * s + a[i] * b[i] * ds) * 2;
  CHECK_CLOSE(t, exact, 1e-14);

  /* forward without markers: the default activities (pointers and doubles
   * duplicated, integers constant) */
  double t2 = __enzyme_fwddiff((void *)weighted, a, b, s, 2, enzyme_interleave,
                               da, db, ds);
  CHECK_CLOSE(t2, exact, 1e-14);

  /* forward, width 2: two shadows per duplicated value, in order; the
   * shadows of b given with enzyme_dupv (stride, then the array after
   * enzyme_interleave) */
  double da1[3] = {0, 1, 0}, db_both[2][3] = {{0, 2, 1}, {1, 1, 1}};
  two_tangents w = __enzyme_fwddiff2(
      (void *)weighted, enzyme_width, 2, enzyme_dup, a, enzyme_dupv,
      sizeof db_both[0], b, enzyme_dup, s, enzyme_const, 2, enzyme_interleave,
      da, da1, db_both, ds, 0.0);
  CHECK_CLOSE(w.lane[0], exact, 1e-14);
  double lane1 = 0;
  for (int i = 0; i < 3; ++i)
    lane1 += (da1[i] * b[i] + a[i] * db_both[1][i]) * s * 2;
  CHECK_CLOSE(w.lane[1], lane1, 1e-14);

  /* reverse: pointers with one sticky enzyme_dup, then s active */
  double ga[3] = {0}, gb[3] = {0};
  double gs = __enzyme_autodiff((void *)weighted, enzyme_dup, a, b, enzyme_out,
                                s, enzyme_const, 2, enzyme_interleave, ga, gb);
  for (int i = 0; i < 3; ++i) {
    CHECK_CLOSE(ga[i], 2 * b[i] * s, 1e-15);
    CHECK_CLOSE(gb[i], 2 * a[i] * s, 1e-15);
  }
  double v[7], g[7];
  for (int i = 0; i < 3; ++i) {
    v[i] = a[i];
    v[3 + i] = b[i];
    g[i] = ga[i];
    g[3 + i] = gb[i];
  }
  v[6] = s;
  g[6] = gs;
  CHECK_GRAD(weighted_arr, v, 7, g, NULL);

  /* reverse with a void function: outputs seeded through their shadows */
  double x[3] = {0.3, -0.7, 1.1}, y[3], dx[3] = {0}, dy[3] = {1, 2, 3};
  __enzyme_autodiff((void *)square_into, x, y, enzyme_const, 0.5,
                    enzyme_interleave, dx, dy);
  for (int i = 0; i < 3; ++i)
    CHECK_CLOSE(dx[i], (i + 1) * x[i], 1e-15);
  return check_finish();
}
