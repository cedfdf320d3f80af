/* The function to differentiate passed to a helper as a parameter, as
 * numerical code written for Enzyme often does: a static gradient helper
 * called for several objectives, a helper of a helper, a helper taking two
 * functions (reverse and forward mode), and a function pointer kept in a
 * local variable. adcc copies each helper once per function its callers
 * pass. These stopped with "must name a function known at compile time" at
 * every level (the helpers are not inlined: they are called several times
 * and marked noinline). Gradients against central differences and forward
 * mode, every level. */
#include "rev_check.h"

typedef double (*objective)(const double *);

static double rosen(const double *x) {
  double a = 1 - x[0], b = x[1] - x[0] * x[0];
  return a * a + 100 * b * b;
}
static double waves(const double *x) { return sin(x[0]) * cos(2 * x[1]); }
static double prod(const double *x) { return x[0] * x[1] * exp(x[0]); }

__attribute__((noinline)) static void gradient(objective f, double *x,
                                               double *dx) {
  dx[0] = dx[1] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}

/* a helper of a helper: the inner one receives the function from the outer */
__attribute__((noinline)) static void gradient_at(objective f, double a,
                                                  double b, double *dx) {
  double x[2] = {a, b};
  gradient(f, x, dx);
}

/* two functions: the tangent of g and the gradient of f */
__attribute__((noinline)) static double both(objective f, objective g,
                                             double *x, double *dx) {
  double v[2] = {1, -0.5};
  gradient(f, x, dx);
  return __enzyme_fwddiff((void *)g, enzyme_dup, x, v);
}

static void check_gradient(objective f, const double *dx, double a, double b,
                           int line) {
  double x[2] = {a, b};
  for (int i = 0; i < 2; ++i) {
    double fd = fd_partial(f, x, i);
    if (!(fabs(dx[i] - fd) <= REV_TOL_FD * (1 + fabs(fd)))) {
      printf("FAIL line %d: d[%d] = %.17g, expected %.17g\n", line, i, dx[i],
             fd);
      ++check_failures;
    }
  }
}

int main(void) {
  double x[2] = {0.7, -0.4}, dx[2];

  gradient(rosen, x, dx);
  check_gradient(rosen, dx, 0.7, -0.4, __LINE__);
  gradient(waves, x, dx);
  check_gradient(waves, dx, 0.7, -0.4, __LINE__);
  gradient(rosen, x, dx); /* the same copy again */
  check_gradient(rosen, dx, 0.7, -0.4, __LINE__);

  gradient_at(prod, 0.3, 1.1, dx);
  check_gradient(prod, dx, 0.3, 1.1, __LINE__);
  gradient_at(waves, 0.3, 1.1, dx);
  check_gradient(waves, dx, 0.3, 1.1, __LINE__);

  double t = both(waves, rosen, x, dx);
  check_gradient(waves, dx, 0.7, -0.4, __LINE__);
  double d[2];
  gradient(rosen, x, d);
  CHECK_CLOSE(t, d[0] * 1 + d[1] * -0.5, 1e-12);

  /* a local function pointer (at -O0 a variable in memory) */
  objective chosen = prod;
  dx[0] = dx[1] = 0;
  __enzyme_autodiff((void *)chosen, enzyme_dup, x, dx);
  check_gradient(prod, dx, 0.7, -0.4, __LINE__);

  return check_finish();
}
