/* Split reverse mode: __enzyme_augmentfwd runs the forward sweep and
 * returns a tape handle (or {tape, result}), __enzyme_reverse runs the
 * reverse sweep later with the adjoint of the result as seed.  A loop
 * over a duplicated array with an active scalar; seeds 1 and 2.5; the
 * primal result from the augmented sweep; inputs overwritten between the
 * sweeps (the reverse uses the recorded values); nested pairs in LIFO
 * order with a complete __enzyme_autodiff in between; 100 augmented sweeps
 * then their reverses; a void function with an output shadow; heap memory
 * inside.  Checked against __enzyme_autodiff, closed forms and forward
 * mode.  A pointer result and a struct of pointers returned with their
 * shadows.  (enzyme_allocated / enzyme_tape: rev_split_tape.c.) */
#include "rev_check.h"

void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
void __enzyme_reverse_void(void *, ...);
typedef struct {
  void *tape;
  double result;
} aug_t;
aug_t __enzyme_augmentfwd_r(void *, ...);

/* A pointer result comes with its shadow ({tape, result, shadow}): the
 * caller accumulates the adjoint of what it reads through the result into
 * the shadow before the reverse sweep. Also a struct of two pointers,
 * returned through memory. */
typedef struct {
  void *tape;
  double *result, *shadow;
} aug_ptr_t;
aug_ptr_t __enzyme_augmentfwd_p(void *, ...);
typedef struct {
  void *tape;
  double *result;
} aug_t2;
aug_t2 __enzyme_augmentfwd_c(void *, ...);
extern int enzyme_const_return;
typedef struct {
  double *a, *b;
} two_ptr;
typedef struct {
  void *tape;
  two_ptr result, shadow;
} aug_two_t;
aug_two_t __enzyme_augmentfwd_two(void *, ...);

static double *scale_second(double *x) {
  x[1] = x[1] * x[0];
  return x + 1;
}
static two_ptr sin_pair(double *x) {
  x[0] = sin(x[0]);
  x[1] = x[0] * x[1];
  two_ptr r = {x, x + 1};
  return r;
}

static double f(double x, const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sin(p[i] * x);
  return s * x;
}
static double g(const double *p) { return p[0] * p[0] * p[1]; }
static void vecf(const double *x, double *y) {
  double *t = (double *)malloc(2 * sizeof(double));
  t[0] = exp(x[0]);
  t[1] = x[1] * t[0];
  y[0] = t[0] + t[1] * t[1];
  y[1] = x[0] * x[1];
  free(t);
}

int main(void) {
  double p[3] = {0.5, 1.5, -1}, x = 0.7;
  double s = 0, ds = 0;
  for (int i = 0; i < 3; ++i) {
    s += sin(p[i] * x);
    ds += cos(p[i] * x) * p[i];
  }
  {
    double dp[3] = {0}, dq[3] = {0};
    void *tape =
        __enzyme_augmentfwd((void *)f, x, enzyme_dup, p, dp, enzyme_const, 3);
    double dx = __enzyme_reverse((void *)f, x, enzyme_dup, p, dp, enzyme_const,
                                 3, 1.0, tape);
    CHECK_CLOSE(dx, s + x * ds, REV_TOL_EXACT);
    double dx2 = __enzyme_autodiff((void *)f, x, p, dq, 3);
    CHECK_CLOSE(dx, dx2, REV_TOL_EXACT);
    for (int i = 0; i < 3; ++i) {
      CHECK_CLOSE(dp[i], x * x * cos(p[i] * x), REV_TOL_EXACT);
      CHECK_CLOSE(dp[i], dq[i], REV_TOL_EXACT);
    }
    double v[3];
    double dot = rev_dir(dp, v, 3) + 0.4 * dx;
    CHECK_CLOSE(dot, __enzyme_fwddiff((void *)f, x, 0.4, p, v, 3), REV_TOL_DOT);
  }
  {
    /* the primal result, and a seed of 2.5 */
    double dp[3] = {0};
    aug_t a = __enzyme_augmentfwd_r((void *)f, x, p, dp, 3);
    CHECK_CLOSE(a.result, s * x, REV_TOL_EXACT);
    double dx = __enzyme_reverse((void *)f, x, p, dp, 3, 2.5, a.tape);
    CHECK_CLOSE(dx, 2.5 * (s + x * ds), REV_TOL_EXACT);
    CHECK_CLOSE(dp[0], 2.5 * x * x * cos(p[0] * x), REV_TOL_EXACT);
  }
  {
    /* inputs overwritten between the sweeps */
    double q[2] = {1.5, 2}, dq[2] = {0};
    void *t = __enzyme_augmentfwd((void *)g, q, dq);
    q[0] = 100;
    q[1] = -100;
    __enzyme_reverse((void *)g, q, dq, 1.0, t);
    CHECK_CLOSE(dq[0], 6.0, REV_TOL_EXACT);
    CHECK_CLOSE(dq[1], 2.25, REV_TOL_EXACT);
  }
  {
    /* nested LIFO pairs, a whole gradient in between */
    double q[2] = {1.5, 2}, dq[2] = {0}, dp[3] = {0}, dr[2] = {0};
    void *t1 = __enzyme_augmentfwd((void *)f, x, p, dp, 3);
    void *t2 = __enzyme_augmentfwd((void *)g, q, dq);
    __enzyme_autodiff((void *)g, q, dr);
    __enzyme_reverse((void *)g, q, dq, 1.0, t2);
    double dx = __enzyme_reverse((void *)f, x, p, dp, 3, 1.0, t1);
    CHECK_CLOSE(dq[0], 6.0, REV_TOL_EXACT);
    CHECK_CLOSE(dr[0], 6.0, REV_TOL_EXACT);
    CHECK_CLOSE(dx, s + x * ds, REV_TOL_EXACT);
  }
  {
    /* 100 augmented sweeps, then their reverses in reverse order */
    enum { K = 100 };
    void *tapes[K];
    double qs[K][2], dqs[K][2];
    for (int k = 0; k < K; ++k) {
      qs[k][0] = 0.01 * k;
      qs[k][1] = 1 + 0.02 * k;
      dqs[k][0] = dqs[k][1] = 0;
      tapes[k] = __enzyme_augmentfwd((void *)g, qs[k], dqs[k]);
    }
    int bad = 0;
    for (int k = K - 1; k >= 0; --k) {
      __enzyme_reverse((void *)g, qs[k], dqs[k], 1.0, tapes[k]);
      bad += !rev_close(dqs[k][0], 2 * qs[k][0] * qs[k][1], REV_TOL_EXACT) ||
             !rev_close(dqs[k][1], qs[k][0] * qs[k][0], REV_TOL_EXACT);
    }
    CHECK_TRUE(bad == 0);
  }
  {
    /* a void function: the output shadow is the seed */
    double xv[2] = {0.3, -0.8}, dxv[2] = {0}, y[2], ybar[2] = {1.0, -0.5};
    void *t = __enzyme_augmentfwd((void *)vecf, xv, dxv, y, ybar);
    CHECK_CLOSE(y[1], xv[0] * xv[1], REV_TOL_EXACT);
    __enzyme_reverse_void((void *)vecf, xv, dxv, y, ybar, t);
    double e0 = exp(xv[0]), t1 = xv[1] * e0;
    CHECK_CLOSE(dxv[0], e0 + 2 * t1 * t1 - 0.5 * xv[1], REV_TOL_EXACT);
    CHECK_CLOSE(dxv[1], 2 * t1 * e0 - 0.5 * xv[0], REV_TOL_EXACT);
  }
  {
    /* L = 2 y with y = x1 x0 read through the returned pointer */
    double x2[2] = {3, 4}, dx2[2] = {0, 0};
    aug_ptr_t a = __enzyme_augmentfwd_p((void *)scale_second, x2, dx2);
    CHECK_TRUE(a.result == x2 + 1 && a.shadow == dx2 + 1);
    CHECK_CLOSE(*a.result, 12.0, REV_TOL_EXACT);
    *a.shadow += 2.0;
    __enzyme_reverse_void((void *)scale_second, x2, dx2, a.tape);
    CHECK_CLOSE(dx2[0], 8.0, REV_TOL_EXACT);
    CHECK_CLOSE(dx2[1], 6.0, REV_TOL_EXACT);
  }
  {
    /* enzyme_const_return: {tape, result}, no shadow; the seed goes into
     * dx2[1] directly */
    double x2[2] = {3, 4}, dx2[2] = {0, 1};
    aug_t2 a = __enzyme_augmentfwd_c((void *)scale_second, enzyme_const_return,
                                     x2, dx2);
    CHECK_TRUE(a.result == x2 + 1);
    __enzyme_reverse_void((void *)scale_second, enzyme_const_return, x2, dx2,
                          a.tape);
    CHECK_CLOSE(dx2[0], 4.0, REV_TOL_EXACT);
    CHECK_CLOSE(dx2[1], 3.0, REV_TOL_EXACT);
  }
  {
    /* L = y0 + 3 y1 with y0 = sin x0, y1 = sin(x0) x1, read through the
     * two returned pointers */
    double x0 = 0.4, x1 = -1.3;
    double x2[2] = {x0, x1}, dx2[2] = {0, 0};
    aug_two_t a = __enzyme_augmentfwd_two((void *)sin_pair, x2, dx2);
    CHECK_TRUE(a.result.a == x2 && a.shadow.a == dx2);
    CHECK_TRUE(a.result.b == x2 + 1 && a.shadow.b == dx2 + 1);
    *a.shadow.a += 1.0;
    *a.shadow.b += 3.0;
    __enzyme_reverse_void((void *)sin_pair, x2, dx2, a.tape);
    CHECK_CLOSE(dx2[0], cos(x0) + 3 * cos(x0) * x1, REV_TOL_EXACT);
    CHECK_CLOSE(dx2[1], 3 * sin(x0), REV_TOL_EXACT);
  }
  return check_finish();
}
