/* Recursion in differentiated code, in the shapes the optimizer rewrites:
 * mutual recursion, recursion through a function pointer, tail recursion
 * (made a loop before differentiation), constant and active scalar
 * arguments mixed (constants folded into the body), the depth from a
 * global, and a base case that calls another function (whose sweeps would
 * be inlined with the recursive one's). The siblings of
 * rev_recursive_constant_args.c. Each gradient is checked against central
 * differences, forward mode (each direction) and split reverse mode. */
#include "check.h"

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

#define NX 4

/* Mutual recursion, each with a constant scalar argument. */
__attribute__((noinline)) static double odd(double a, const double *p, int d);
__attribute__((noinline)) static double even(double a, const double *p,
                                             int d) {
  if (d <= 0)
    return a * tanh(p[0]);
  return cos(odd(a, p, d - 1) * a + p[1]);
}
__attribute__((noinline)) static double odd(double a, const double *p, int d) {
  if (d <= 0)
    return exp(a * p[1]);
  return sin(even(a, p, d - 1) + p[0] * p[2]);
}
static double f_mutual(const double *x, int n) {
  double h[3] = {x[0], x[1], x[2]};
  return even(-0.8, h, n) + odd(0.6, x, n - 1) * x[3];
}

/* Recursion through a function pointer (passed down, constant). */
typedef double (*step_fn)(const void *self, double a, const double *p, int d);
__attribute__((noinline)) static double via(const void *self, double a,
                                            const double *p, int d) {
  if (d <= 0)
    return a * tanh(p[0]);
  step_fn next = (step_fn)self;
  return sin(next(self, a, p, d - 1) + a * p[1]);
}
static double f_pointer(const double *x, int n) {
  double h[2] = {x[0], x[1]};
  return via((const void *)via, -1.07, h, n) + x[2];
}

/* Tail recursion: an accumulator passed down. */
__attribute__((noinline)) static double tail(double acc, const double *p,
                                             int d) {
  if (d <= 0)
    return acc * tanh(p[0]);
  return tail(sin(acc + p[d % 2]), p, d - 1);
}
static double f_tail(const double *x, int n) {
  return tail(0.4, x, n) + tail(x[2], x + 1, n - 1);
}

/* Constant and active scalars mixed, in each combination. */
__attribute__((noinline)) static double mix(double a, double c,
                                            const double *p, int d) {
  if (d <= 0)
    return a * tanh(p[0] * c);
  return sin(mix(a, c, p, d - 1) * c + a);
}
static double f_mixed(const double *x, int n) {
  return mix(-1.07, 0.7, x, n) + mix(x[1], 0.7, x, n) +
         mix(-1.07, x[2], x, n) + mix(x[3], x[2], x + 1, n);
}

/* The depth from a global. */
int depth = 4;
__attribute__((noinline)) static double rec(double a, const double *p, int d) {
  if (d <= 0)
    return a * tanh(p[0]);
  return sin(rec(a, p, d - 1) + a);
}
static double f_global(const double *x, int n) {
  double h[1] = {x[0]};
  return rec(-1.07, h, depth) + rec(x[1], x + 2, depth - n + 4);
}

/* A base case that calls another function, which records. */
__attribute__((noinline)) static double leaf(double a, const double *p) {
  return a * tanh(p[0]) * p[1];
}
__attribute__((noinline)) static double based(double a, const double *p,
                                              int d) {
  if (d <= 0)
    return leaf(a, p);
  return sin(based(a, p, d - 1) + a);
}
static double f_based(const double *x, int n) {
  double h[2] = {x[0], x[3]};
  return based(-1.07, h, n) + based(x[1], x + 2, n);
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

/* Combined and split reverse mode and forward mode of f, at depth n,
 * against central differences and each other. (A macro: each request
 * names its function.) */
#define CHECK_ALL(f, n)                                                        \
  do {                                                                         \
    const double x0[NX] = {0.3, 0.8, -0.4, 0.6};                               \
    double x[NX], dx[NX] = {0}, sx[NX] = {0};                                  \
    for (int k = 0; k < NX; ++k)                                               \
      x[k] = x0[k];                                                            \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);          \
    void *tape =                                                               \
        __enzyme_augmentfwd((void *)f, enzyme_dup, x, sx, enzyme_const, n);    \
    __enzyme_reverse((void *)f, enzyme_dup, x, sx, enzyme_const, n, 1.0,       \
                     tape);                                                    \
    for (int i = 0; i < NX; ++i) {                                             \
      double v[NX] = {0};                                                      \
      v[i] = 1;                                                                \
      double t =                                                               \
          __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, n);      \
      if (!(fabs(dx[i] - fd(f, x0, i, n)) <= 1e-6 * (1 + fabs(dx[i]))))        \
        printf("%s, depth %d: d/dx[%d]\n", #f, n, i);                          \
      CHECK_CLOSE(dx[i], fd(f, x0, i, n), 1e-6);                               \
      CHECK_CLOSE(t, dx[i], 1e-12);                                            \
      CHECK_CLOSE(sx[i], dx[i], 1e-12);                                        \
    }                                                                          \
  } while (0)

int main(void) {
  CHECK_ALL(f_mutual, 5);
  CHECK_ALL(f_pointer, 4);
  CHECK_ALL(f_tail, 4);
  CHECK_ALL(f_mixed, 3);
  CHECK_ALL(f_global, 4);
  CHECK_ALL(f_based, 4);
  /* Depth 0 and 1: the base case only, one level. */
  CHECK_ALL(f_based, 1);
  CHECK_ALL(f_mixed, 0);
  return check_finish();
}
