/* Reverse mode of a recursive noinline function called with a constant
 * scalar argument (which the optimizer folds into its body) and an active
 * pointer. The reverse sweep calls itself last, so the optimizer made it a
 * loop whose exit runs the base case of the deepest call; once inlined into
 * the gradient, the base case's record (the value tanh reads) was taken
 * from a stack slot that only the outermost call's augmented sweep would
 * have written: a wrong gradient without an error at -O2 until 2026-12-06
 * (0.014465 for 0.013238), and with a second call of another activity a
 * crash or a tape size mismatch (adfuzz v20 seed 238). Checked in combined
 * and split reverse mode, forward and split forward mode against
 * hand-derived tangents (analytic) and central differences. */
#include "check.h"

extern int enzyme_dup, enzyme_const, enzyme_out;
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);
double __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
double __enzyme_fwdsplit(void *, ...);

#define NX 4
#define DEPTH 4

__attribute__((noinline)) static double rec(double a, const double *p, int d) {
  if (d <= 0)
    return a * tanh(p[0]);
  return sin(rec(a, p, d - 1) + a);
}

/* The program: a constant a, the active input copied to a local. */
static double f_const(const double *x, int n) {
  double h[1] = {x[0]};
  return rec(-1.07, h, n);
}

/* With a second call of another activity (an active a). */
static double f_mixed(const double *x, int n) {
  double h[1] = {x[0]};
  return rec(-1.07, h, n) + rec(x[3], x, n) * x[1];
}

/* rec and its tangent in direction (da, dp), derived by hand. */
static double rec_tangent(double a, double da, const double *p,
                          const double *dp, int d, double *dv) {
  if (d <= 0) {
    double t = tanh(p[0]);
    *dv = da * t + a * (1 - t * t) * dp[0];
    return a * t;
  }
  double dr, r = rec_tangent(a, da, p, dp, d - 1, &dr);
  *dv = cos(r + a) * (dr + da);
  return sin(r + a);
}

/* The exact partial derivatives of f_const and f_mixed in x[i]. */
static double exact_const(const double *x, int i, int n) {
  double h[1] = {x[0]}, dh[1] = {i == 0}, dv;
  rec_tangent(-1.07, 0, h, dh, n, &dv);
  return dv;
}
static double exact_mixed(const double *x, int i, int n) {
  double e[NX] = {0}, dv1, dv2;
  e[i] = 1;
  double h[1] = {x[0]}, dh[1] = {e[0]};
  rec_tangent(-1.07, 0, h, dh, n, &dv1);
  double r = rec_tangent(x[3], e[3], x, e, n, &dv2);
  return dv1 + dv2 * x[1] + r * e[1];
}

/* f_mixed again, for split forward mode (a function that __enzyme_fwdsplit
 * requests records for it: not the one split reverse mode uses). */
static double g_mixed(const double *x, int n) {
  double h[1] = {x[0]};
  return rec(-1.07, h, n) + rec(x[3], x, n) * x[1];
}

typedef double (*objective)(const double *, int);

static double fd(objective f, const double *x0, int i, int n) {
  double x[NX], h = 1e-6;
  for (int k = 0; k < NX; ++k)
    x[k] = x0[k];
  x[i] = x0[i] + h;
  double up = f(x, n);
  x[i] = x0[i] - h;
  return (up - f(x, n)) / (2 * h);
}

/* Combined, split and forward mode of f against exact and central
 * differences. (A macro: each request names its function.) */
#define CHECK_ALL(f, exact)                                                    \
  do {                                                                         \
    const double x0[NX] = {0.3, 0.8, -0.4, 0.6};                               \
    double x[NX], dx[NX] = {0}, sx[NX] = {0};                                  \
    for (int k = 0; k < NX; ++k)                                               \
      x[k] = x0[k];                                                            \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, DEPTH);      \
    void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, sx,             \
                                     enzyme_const, DEPTH);                     \
    __enzyme_reverse((void *)f, enzyme_dup, x, sx, enzyme_const, DEPTH, 1.0,   \
                     tape);                                                    \
    for (int i = 0; i < NX; ++i) {                                             \
      double want = exact(x0, i, DEPTH);                                       \
      CHECK_CLOSE(dx[i], want, 1e-12);                                         \
      CHECK_CLOSE(dx[i], fd(f, x0, i, DEPTH), 1e-6);                           \
      CHECK_CLOSE(sx[i], want, 1e-12);                                         \
      double v[NX] = {0};                                                      \
      v[i] = 1;                                                                \
      CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const,  \
                                   DEPTH),                                     \
                  want, 1e-12);                                                \
    }                                                                          \
  } while (0)

int main(void) {
  CHECK_ALL(f_const, exact_const);
  CHECK_ALL(f_mixed, exact_mixed);

  /* Split forward mode: each direction's tangent from its records. */
  const double x0[NX] = {0.3, 0.8, -0.4, 0.6};
  for (int i = 0; i < NX; ++i) {
    double x[NX], v[NX] = {0};
    for (int k = 0; k < NX; ++k)
      x[k] = x0[k];
    v[i] = 1;
    void *tape = __enzyme_augmentfwd((void *)g_mixed, enzyme_dup, x, v,
                                     enzyme_const, DEPTH);
    double t = __enzyme_fwdsplit((void *)g_mixed, enzyme_dup, x, v,
                                 enzyme_const, DEPTH, tape);
    CHECK_CLOSE(t, exact_mixed(x0, i, DEPTH), 1e-12);
  }

  /* rec itself requested: a constant a, then an active one. */
  double p[1] = {0.3}, dp[1] = {0}, e[1] = {1}, dv;
  __enzyme_autodiff((void *)rec, enzyme_const, -1.07, enzyme_dup, p, dp,
                    enzyme_const, DEPTH);
  rec_tangent(-1.07, 0, p, e, DEPTH, &dv);
  CHECK_CLOSE(dp[0], dv, 1e-12);
  dp[0] = 0;
  double da = __enzyme_autodiff_d((void *)rec, enzyme_out, 0.9, enzyme_dup, p,
                                  dp, enzyme_const, DEPTH);
  rec_tangent(0.9, 0, p, e, DEPTH, &dv);
  CHECK_CLOSE(dp[0], dv, 1e-12);
  double zero[1] = {0};
  rec_tangent(0.9, 1, p, zero, DEPTH, &dv);
  CHECK_CLOSE(da, dv, 1e-12);
  return check_finish();
}
