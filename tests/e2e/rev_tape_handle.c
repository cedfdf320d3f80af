/* Reverse mode of functions whose callee's sweeps record on the thread's
 * tape from several places of one gradient: in a loop of a trip count
 * known only at run time, at the unrolled call sites of a loop of constant
 * trip count, at call sites of straight-line code and around a call of
 * a function that writes memory the
 * compiler cannot see (after which the thread's tape is asked for again).
 * Once the sweeps are inlined into the gradient, all their pushes and pops
 * use one tape handle (optimize/TapeHandles.cpp). Checked against central
 * differences, analytic values and forward mode. */
#include "check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* A callee whose records differ by the branch it takes. */
__attribute__((noinline)) static double g(const double *p) {
  if (p[0] > 0.5)
    return sin(p[0]) * p[1];
  return exp(p[1]) * p[0] * p[0];
}

/* In a loop of n iterations (one record block per iteration). */
static double in_loop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += g(x + i) * (1 + 0.1 * i);
  return s;
}

/* At four call sites once the loop is unrolled. */
static double unrolled(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < 4; i++)
    s *= 1 + g(x + 2 * i);
  return s + 0 * n;
}

/* Around a call that writes memory of another file's kind (a global the
 * optimizer cannot keep track of through the volatile access). */
volatile int calls_seen;
__attribute__((noinline)) static void note(void) { calls_seen = calls_seen + 1; }
static double around_call(const double *x, int n) {
  double a = g(x);
  note();
  double b = g(x + 3);
  return a * b + g(x + n - 2);
}

/* A callee without branches at three call sites of straight-line code
 * (its records of each site in a slot of the gradient's frame, the last
 * site's read first), and at two sites on either side of a branch (on the
 * tape). */
__attribute__((noinline)) static double h(const double *p, double c) {
  double u = p[0] * c + p[1];
  return sin(u) * exp(0.3 * u) + p[1] * p[1] * c;
}
static double sites(const double *x, int n) {
  double a = h(x, 0.7);
  double b = h(x + 2, a);
  double c = h(x + 4, b * a);
  double d = n > 3 ? h(x + 6, c) : h(x + 5, -c);
  return a + b * c + d;
}

typedef double (*objective)(const double *, int);
enum { N = 9 };

static double at(objective f, const double *x0, int n, int i, double d) {
  double x[N];
  for (int k = 0; k < N; ++k)
    x[k] = x0[k];
  x[i] += d;
  return f(x, n);
}

static void check(objective f, const char *name, int n) {
  double x[N], dx[N] = {0}, h = 1e-6;
  for (int k = 0; k < N; ++k)
    x[k] = 0.2 + 0.13 * k * (k % 2 ? 1 : -0.5) + (k % 3 == 0 ? 0.6 : 0);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < N; ++i) {
    double fd = (at(f, x, n, i, h) - at(f, x, n, i, -h)) / (2 * h);
    if (fabs(dx[i] - fd) > 1e-6 * (1 + fabs(fd)))
      printf("%s: d/dx[%d] %g, differences %g\n", name, i, dx[i], fd);
    CHECK_CLOSE(dx[i], fd, 1e-6);
    double v[N] = {0};
    v[i] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const,
                                 n),
                dx[i], 1e-12);
  }
}

int main(void) {
  check(in_loop, "in_loop", 8);
  check(in_loop, "in_loop", 1);
  check(unrolled, "unrolled", 0);
  check(around_call, "around_call", 7);
  check(sites, "sites", 4);
  check(sites, "sites", 2);
  /* Analytic: in_loop over two points on either side of the branch. */
  double x[3] = {0.9, 0.3, 0.7}, dx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)in_loop, enzyme_dup, x, dx, enzyme_const, 2);
  /* g(x) = sin(x0) x1 (x0 > 0.5); g(x+1) = exp(x2) x1^2 (x1 <= 0.5), 1.1 */
  CHECK_CLOSE(dx[0], cos(0.9) * 0.3, 1e-12);
  CHECK_CLOSE(dx[1], sin(0.9) + 1.1 * exp(0.7) * 2 * 0.3, 1e-12);
  CHECK_CLOSE(dx[2], 1.1 * exp(0.7) * 0.3 * 0.3, 1e-12);
  CHECK_TRUE(calls_seen > 0);
  return check_finish();
}
