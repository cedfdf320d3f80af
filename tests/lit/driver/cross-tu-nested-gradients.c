// A function that computes a gradient itself (__enzyme_autodiff inside a
// callback), called through a function pointer by a function of another
// file whose derivative is made at link time: the inner gradient is
// differentiated again there (reverse over reverse, forward over reverse;
// liblbfgs's callback, scripts/realcode/lbfgs.sh "nested"). From -O1 the
// callback's file carried its IR with the inner sweeps inlined and their
// tape operations expanded into inline fast paths, whose pushes got no
// shadow records while the slow paths' calls did: the outer derivative
// read the inner records at the wrong offset. Until 2026-12-07 the second
// derivative was wrong at -O1 (0.34 for 0.24) and the program stopped at
// -O2 and -O3 ("out of memory allocating a tape chunk of 7.5e14 bytes": a
// loop count read from a pointer). The objects now carry their IR as it
// is before the expansion (ADPass.cpp), as -O0 always did.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c lib.c && %adcc -O0 main.c lib.o -o prog0 -lm
// RUN: ./prog0 | FileCheck %s
// RUN: %adcc -O1 -c lib.c && %adcc -O1 main.c lib.o -o prog1 -lm
// RUN: ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c lib.c && %adcc -O2 main.c lib.o -o prog2 -lm
// RUN: ./prog2 | FileCheck %s
// RUN: %adcc -O3 -c lib.c && %adcc -O3 main.c lib.o -o prog3 -lm
// RUN: ./prog3 | FileCheck %s
// CHECK: quadratic 1 steps: ok
// CHECK-NEXT: quadratic 3 steps: ok
// CHECK-NEXT: cubic 1 steps: ok
// CHECK-NEXT: cubic 3 steps: ok

//--- lib.c
// Gradient descent: the gradient from the callback.
typedef double (*eval_fn)(void *inst, const double *x, double *g, int n);
double descend(eval_fn f, void *inst, double *x, int n, int steps) {
  double g[8], fx = 0;
  for (int k = 0; k < steps; ++k) {
    fx = f(inst, x, g, n);
    for (int i = 0; i < n; ++i)
      x[i] -= 0.1 * g[i];
  }
  return fx;
}

//--- main.c
#include <math.h>
#include <stdio.h>
typedef double (*eval_fn)(void *inst, const double *x, double *g, int n);
double descend(eval_fn f, void *inst, double *x, int n, int steps);
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

// t0 sum x_i^2, or t1 sum x_i^3 (two loops: the inner sweeps branch).
static double objective(const double *x, const double *t, int n, int kind) {
  double f = 0;
  if (kind == 0) {
    for (int i = 0; i < n; ++i)
      f += x[i] * x[i] * t[0];
  } else {
    for (int i = 0; i < n; ++i)
      f += x[i] * x[i] * x[i] * t[1];
  }
  return f;
}

struct problem {
  const double *t;
  int kind, steps;
};

static double evaluate(void *inst, const double *x, double *g, int n) {
  struct problem *p = inst;
  for (int i = 0; i < n; ++i)
    g[i] = 0;
  __enzyme_autodiff((void *)objective, enzyme_dup, x, g, enzyme_const, p->t,
                    enzyme_const, n, enzyme_const, p->kind);
  return objective(x, p->t, n, p->kind);
}

static const double x0[2] = {0.5, -0.3};

// f(x_{S-1}) + x_S[0] after S steps from x0.
static double after(const double *t, const struct problem *shape) {
  double x[2] = {x0[0], x0[1]};
  struct problem p = {t, shape->kind, shape->steps};
  double fx = descend(evaluate, &p, x, 2, p.steps);
  return fx + x[0];
}

static int close_to(double a, double b, double tol) {
  return fabs(a - b) <= tol * (1 + fabs(b));
}

static int check(int kind, int steps) {
  double t[2] = {0.7, 0.9}, d[2] = {0, 0};
  struct problem shape = {0, kind, steps};
  __enzyme_autodiff((void *)after, enzyme_dup, t, d, enzyme_const, &shape);
  int ok = 1;
  for (int i = 0; i < 2; ++i) {
    double h = 1e-6, s = t[i];
    t[i] = s + h;
    double up = after(t, &shape);
    t[i] = s - h;
    double down = after(t, &shape);
    t[i] = s;
    double fd = (up - down) / (2 * h);
    double dir[2] = {i == 0, i == 1};
    double tangent =
        __enzyme_fwddiff((void *)after, enzyme_dup, t, dir, enzyme_const,
                         &shape);
    // (The quadratic's steps scale x by c = 1 - 0.2 t0: d/dt0 of
    // t0 c^(2S-2) |x0|^2 + c^S x0[0]; t1 is not read.)
    double exact = fd;
    if (kind == 0) {
      double c = 1 - 0.2 * t[0], X = x0[0] * x0[0] + x0[1] * x0[1];
      exact = i == 1 ? 0
                     : pow(c, 2 * steps - 2) * X -
                           0.4 * (steps - 1) * t[0] * pow(c, 2 * steps - 3) *
                               X -
                           0.2 * steps * pow(c, steps - 1) * x0[0];
    }
    int here = close_to(d[i], exact, kind == 0 ? 1e-12 : 1e-7) &&
               close_to(fd, d[i], 1e-7) && close_to(tangent, d[i], 1e-12);
    if (!here)
      printf("kind %d, %d steps, d/dt%d: reverse %.17g forward %.17g "
             "differences %.17g exact %.17g\n",
             kind, steps, i, d[i], tangent, fd, exact);
    ok &= here;
  }
  printf("%s %d steps: %s\n", kind == 0 ? "quadratic" : "cubic", steps,
         ok ? "ok" : "FAILED");
  return ok;
}

int main(void) {
  int ok = check(0, 1);
  ok &= check(0, 3);
  ok &= check(1, 1);
  ok &= check(1, 3);
  return !ok;
}
