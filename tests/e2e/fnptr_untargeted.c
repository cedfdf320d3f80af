// Calls through function pointers of types that no function of the program
// has, on paths that never run (issue 33): liblbfgs's progress callback
// tested against null before its call, and a table entry of seven
// arguments chosen only by a kind the run never has (tinyexpr's closures
// of 7 arguments, where the program defines none). Until 2026-12-07 a
// compile-time error ("no function defined in this translation unit can be
// the target of this call through a function pointer"); now the program
// stops with a located message only where such a call runs (lit
// errors/fnptr-untargeted-stop.c). Reverse mode against central
// differences and the exact values, forward mode against reverse, at -O0
// to -O3.
#include "check.h"

#include <math.h>
#include <stddef.h>

extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);

typedef int (*progress_fn)(void *, const double *, double, int);
typedef double (*closure7)(double, double, double, double, double, double,
                           double);

struct options {
  progress_fn progress; // null: no report
  int kind;             // 7: call seven
  closure7 seven;
};

enum { N = 3 };

// f = sum_i sin(x_i) x_{i+1 mod 3}, with the report after each term.
static double terms(double *x, const struct options *o) {
  double s = 0;
  for (int i = 0; i < N; ++i) {
    s += sin(x[i]) * x[(i + 1) % N];
    if (o->progress && o->progress(NULL, x, s, i))
      break;
  }
  if (o->kind == 7)
    s += o->seven(x[0], x[1], x[2], s, s, s, s);
  return s;
}

int main(void) {
  const double x0[N] = {0.4, 0.75, 1.1};
  struct options o = {NULL, 0, NULL};
  double x[N], g[N] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = x0[i];
  __enzyme_autodiff((void *)terms, enzyme_dup, x, g, enzyme_const, &o);
  for (int i = 0; i < N; ++i) {
    int prev = (i + N - 1) % N, next = (i + 1) % N;
    double want = cos(x0[i]) * x0[next] + sin(x0[prev]);
    double xp[N], xm[N], dx[N] = {0}, h = 1e-6;
    for (int j = 0; j < N; ++j)
      xp[j] = xm[j] = x[j] = x0[j];
    xp[i] += h;
    xm[i] -= h;
    double fd = (terms(xp, &o) - terms(xm, &o)) / (2 * h);
    dx[i] = 1;
    double t =
        __enzyme_fwddiff((void *)terms, enzyme_dup, x, dx, enzyme_const, &o);
    printf("d/dx%d: reverse %.10g forward %.10g differences %.10g\n", i, g[i],
           t, fd);
    CHECK_CLOSE(g[i], fd, 1e-6);
    CHECK_CLOSE(g[i], want, 1e-12);
    CHECK_CLOSE(t, g[i], 1e-12);
  }
  return check_finish();
}
