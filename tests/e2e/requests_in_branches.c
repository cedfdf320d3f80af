/* Requests in the two arms of an `if` that differ only in the function
 * differentiated: from -O1 on, SimplifyCFG sank the two calls into one
 * whose first argument is a phi, and the gradient was refused ("the first
 * argument of __enzyme_autodiff must name a function known at compile
 * time"); llm.c's harness chooses its objective so
 * (scripts/realcode/llmc_gradient.c). Also two requests of one function
 * that differ only in which argument is active. The choice made at run
 * time, both modes, helpers inlined into their caller and not, against
 * analytic derivatives and central differences. */
#include "check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static double square(const double *x, double s) { return s * x[0] * x[0]; }
static double cube(const double *x, double s) { return s * x[0] * x[0] * x[0]; }

/* One request per arm, the function differing. */
static void gradient(int which, const double *x, double *dx, double s) {
  if (which)
    __enzyme_autodiff((void *)cube, enzyme_dup, x, dx, enzyme_const, s);
  else
    __enzyme_autodiff((void *)square, enzyme_dup, x, dx, enzyme_const, s);
}

static double tangent(int which, const double *x, const double *tx, double s) {
  if (which)
    return __enzyme_fwddiff((void *)cube, enzyme_dup, x, tx, enzyme_const, s);
  return __enzyme_fwddiff((void *)square, enzyme_dup, x, tx, enzyme_const, s);
}

/* The same, out of line. */
__attribute__((noinline)) static void gradient_apart(int which, const double *x,
                                                     double *dx, double s) {
  gradient(which, x, dx, s);
}

/* One function, the arms differing in which argument is active: the
 * markers (and the number of arguments) the same in count. */
static double scaled(const double *x, const double *y) {
  return x[0] * y[0] * y[0];
}

static void partial(int wrt_x, const double *x, double *dx, const double *y,
                    double *dy) {
  if (wrt_x)
    __enzyme_autodiff((void *)scaled, enzyme_dup, x, dx, enzyme_const, y);
  else
    __enzyme_autodiff((void *)scaled, enzyme_const, x, enzyme_dup, y, dy);
}

static double value(int which, double x, double s) {
  return which ? s * x * x * x : s * x * x;
}

int main(int argc, char **argv) {
  (void)argv;
  const double s = 1.5 + 0.25 * (argc > 7);
  for (int which = 0; which < 2; ++which) {
    /* The choice the optimizer cannot see. */
    int w = which ^ (argc > 7);
    double x[1] = {1.25};
    double d1[1] = {0}, d2[1] = {0}, t[1] = {1};
    gradient(w, x, d1, s);
    gradient_apart(w, x, d2, s);
    double want = w ? 3 * s * x[0] * x[0] : 2 * s * x[0];
    double h = 1e-5;
    double fd = (value(w, x[0] + h, s) - value(w, x[0] - h, s)) / (2 * h);
    CHECK_CLOSE(d1[0], want, 1e-14);
    CHECK_CLOSE(d2[0], want, 1e-14);
    CHECK_CLOSE(d1[0], fd, 1e-8);
    CHECK_CLOSE(tangent(w, x, t, s), want, 1e-14);
  }
  for (int wrt_x = 0; wrt_x < 2; ++wrt_x) {
    int w = wrt_x ^ (argc > 7);
    double x[1] = {0.75}, y[1] = {-2.0}, dx[1] = {0}, dy[1] = {0};
    partial(w, x, dx, y, dy);
    CHECK_CLOSE(dx[0], w ? y[0] * y[0] : 0.0, 1e-14);
    CHECK_CLOSE(dy[0], w ? 0.0 : 2 * x[0] * y[0], 1e-14);
  }
  return check_finish();
}
