// A function that computes a gradient itself (a callback running
// __enzyme_autodiff, as in cross-tu-nested-gradients.c), differentiated
// again at link time from another file, in a file that also makes dense
// views (a one-hot seed of __enzyme_todense, an enzyme_dupnoneed output at
// a constant address). Such a file carried its IR for link time after its
// derivatives' tape operations were expanded inline (views are lowered
// after that): until 2026-12-07 the outer derivative read the inner records
// at the wrong offset, a second derivative of 0.34 for 0.24 at -O1 and
// "out of memory allocating a tape chunk of 7.5e14 bytes" at -O2 and -O3.
// Now it carries its IR before the expansion, views unlowered, and the link
// step lowers the views it keeps (CrossTU.cpp). Reverse over reverse and
// forward over reverse against central differences and the exact
// derivative, the views' derivatives against exact values, -O0 to -O3.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c lib.c -o lib0.o && %adcc -O0 main.c lib0.o -o prog0 -lm && ./prog0 | FileCheck %s
// RUN: %adcc -O1 -c lib.c -o lib1.o && %adcc -O1 main.c lib1.o -o prog1 -lm && ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c lib.c -o lib2.o && %adcc -O2 main.c lib2.o -o prog2 -lm && ./prog2 | FileCheck %s
// RUN: %adcc -O3 -c lib.c -o lib3.o && %adcc -O3 main.c lib3.o -o prog3 -lm && ./prog3 | FileCheck %s
// CHECK: views ok
// CHECK-NEXT: 1 steps ok
// CHECK-NEXT: 3 steps ok

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
extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
double *__enzyme_todense(void *, void *, ...);

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
  int kind;
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
static double after(const double *t, int steps) {
  double x[2] = {x0[0], x0[1]};
  struct problem p = {t, 0};
  double fx = descend(evaluate, &p, x, 2, steps);
  return fx + x[0];
}

static int close_to(double a, double b, double tol) {
  return fabs(a - b) <= tol * (1 + fabs(b));
}

// The quadratic's steps scale x by c = 1 - 0.2 t0: d/dt0 of t0 c^(2S-2) |x0|^2 +
// c^S x0[0]; t1 is not read.
static int check(int steps) {
  double t[2] = {0.7, 0.9}, d[2] = {0, 0};
  __enzyme_autodiff((void *)after, enzyme_dup, t, d, enzyme_const, steps);
  int ok = 1;
  for (int i = 0; i < 2; ++i) {
    double h = 1e-6, s = t[i];
    t[i] = s + h;
    double up = after(t, steps);
    t[i] = s - h;
    double down = after(t, steps);
    t[i] = s;
    double fd = (up - down) / (2 * h), dir[2] = {i == 0, i == 1};
    double tangent =
        __enzyme_fwddiff((void *)after, enzyme_dup, t, dir, enzyme_const, steps);
    double c = 1 - 0.2 * t[0], X = x0[0] * x0[0] + x0[1] * x0[1];
    double exact =
        i == 1 ? 0
               : pow(c, 2 * steps - 2) * X -
                     0.4 * (steps - 1) * t[0] * pow(c, 2 * steps - 3) * X -
                     0.2 * steps * pow(c, steps - 1) * x0[0];
    int here = close_to(d[i], exact, 1e-12) && close_to(fd, d[i], 1e-7) &&
               close_to(tangent, d[i], 1e-12);
    if (!here)
      printf("%d steps, d/dt%d: reverse %.17g forward %.17g differences "
             "%.17g exact %.17g\n",
             steps, i, d[i], tangent, fd, exact);
    ok &= here;
  }
  printf("%d steps %s\n", steps, ok ? "ok" : "FAILED");
  return ok;
}

// y = (x0 x1, sin x0)
static void outputs(const double *x, double *y) {
  y[0] = x[0] * x[1];
  y[1] = sin(x[0]);
}
// A one-hot seed at element `hot`, never written.
static double seed_load(long offset, long hot) {
  return offset / (long)sizeof(double) == hot ? 1.0 : 0.0;
}
static void seed_store(double v, long offset, long hot) {
  (void)v, (void)offset, (void)hot;
}

static int check_views(void) {
  double x[2] = {0.6, -1.3}, dx[2] = {0, 0}, dy[2] = {1.5, -0.5};
  // Only the adjoints wanted: the output is a view without memory.
  __enzyme_autodiff((void *)outputs, enzyme_dup, x, dx, enzyme_dupnoneed,
                    (double *)0x1, dy);
  int ok = close_to(dx[0], 1.5 * x[1] - 0.5 * cos(x[0]), 1e-12) &&
           close_to(dx[1], 1.5 * x[0], 1e-12);
  // Column 0 of the Jacobian from a dense view of the seed e_0.
  double y[2], ty[2];
  double *seed = __enzyme_todense((void *)seed_load, (void *)seed_store, 0L);
  __enzyme_fwddiff_void((void *)outputs, enzyme_dup, x, seed, enzyme_dup, y,
                        ty);
  ok &= close_to(ty[0], x[1], 1e-12) && close_to(ty[1], cos(x[0]), 1e-12);
  printf("views %s\n", ok ? "ok" : "FAILED");
  return ok;
}

int main(void) {
  int ok = check_views();
  ok &= check(1);
  ok &= check(3);
  return !ok;
}
