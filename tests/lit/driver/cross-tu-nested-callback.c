// A callback that requests a gradient itself (a Jacobian's row by
// __enzyme_autodiff, as given to MINPACK's lmstr), called by a solver of
// another file, and the whole run differentiated again: the callback's
// derivative is made at link time from the IR its file carries, in which
// the inner gradient was already made, its helpers for null shadows inlined
// into calls of the runtime (adcc_null_shadow_strip, adcc_null_shadow),
// which are inactive functions. The derivative of the inner sweep then lost
// the outer tangent of the row's shadow pointer it records and reads back:
// until 2026-12-07 the derivatives with respect to the data the row depends
// on were 0 at -O0, in both modes, without an error (cminpack's lmstr with
// rows by reverse mode: scripts/realcode/cminpack.sh). The link step now
// turns those calls back into the helpers' before it differentiates.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c solver.c main.c && %adcc main.o solver.o -o prog0 -lm
// RUN: ./prog0 | FileCheck %s
// RUN: %adcc -O1 -c solver.c main.c && %adcc main.o solver.o -o prog1 -lm
// RUN: ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c solver.c main.c && %adcc main.o solver.o -o prog2 -lm
// RUN: ./prog2 | FileCheck %s
// RUN: %adcc -O3 main.c solver.c -o prog3 -lm && ./prog3 | FileCheck %s
// CHECK: fixed x: t[0] ok
// CHECK: fixed x: t[1] ok
// CHECK: moving x: t[0] ok
// CHECK: moving x: t[1] ok
// CHECK: moving x: t[2] ok
// CHECK: all ok

//--- solver.c
/* Asks the callback for each row of a Jacobian in its own buffer; moves x
   (in place) along the rows when asked to. */
typedef void (*row_fn)(void *p, const double *x, double *row, int i);

double sum_rows(row_fn f, void *p, double *x, int m, int move) {
  double row[2], s = 0;
  for (int i = 0; i < m; ++i) {
    f(p, x, row, i);
    s += row[0] + 3 * row[1];
    if (move) {
      x[0] -= 0.1 * row[0];
      x[1] -= 0.1 * row[1];
    }
  }
  return s + x[0] + 2 * x[1];
}

//--- main.c
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
typedef void (*row_fn)(void *p, const double *x, double *row, int i);
double sum_rows(row_fn f, void *p, double *x, int m, int move);

enum { M = 3 };
struct data {
  const double *t;
};
/* The abscissa passed by value to a helper: the inner sweep records it. */
static double model(double t, const double *x) {
  return x[0] * exp(-x[1] * t);
}
static double resid(const double *x, const struct data *d, int i) {
  return model(d->t[i], x);
}
/* The row by reverse mode, straight into the solver's buffer; the data
   constant for it. */
static void row_cb(void *p, const double *x, double *row, int i) {
  row[0] = row[1] = 0;
  __enzyme_autodiff((void *)resid, enzyme_dup, x, row, enzyme_const,
                    (const struct data *)p, enzyme_const, i);
}
/* ... differentiated with respect to the data. */
static double fixed_x(const double *t) {
  struct data d = {t};
  double x[2] = {1.2, 0.4};
  return sum_rows(row_cb, &d, x, 2, 0);
}
static double moving_x(const double *t) {
  struct data d = {t};
  double x[2] = {1.2 + 0.1 * t[0], 0.4};
  return sum_rows(row_cb, &d, x, M, 1);
}
static int far(double got, double want, double tol) {
  return !(fabs(got - want) <= tol * fmax(1.0, fabs(want)));
}
int main(void) {
  double t[M] = {0.7, 1.3, 1.8}, g[M] = {0}, x0 = 1.2, x1 = 0.4;
  int bad = 0;
  /* row = (e, -x0 t e), e = exp(-x1 t): d/dt_i (e - 3 x0 t e) + 0 */
  __enzyme_autodiff((void *)fixed_x, enzyme_dup, t, g);
  for (int k = 0; k < 2; ++k) {
    double dt[M] = {0};
    dt[k] = 1;
    double fw = __enzyme_fwddiff((void *)fixed_x, enzyme_dup, t, dt);
    double e = exp(-x1 * t[k]);
    double want = -x1 * e - 3 * x0 * (e - x1 * t[k] * e);
    int wrong = far(g[k], want, 1e-12) + far(fw, want, 1e-12);
    printf("fixed x: t[%d] %s: reverse %.15g forward %.15g want %.15g\n", k,
           wrong ? "WRONG" : "ok", g[k], fw, want);
    bad += wrong;
  }
  double h[M] = {0};
  __enzyme_autodiff((void *)moving_x, enzyme_dup, t, h);
  for (int k = 0; k < M; ++k) {
    double dt[M] = {0};
    dt[k] = 1;
    double fw = __enzyme_fwddiff((void *)moving_x, enzyme_dup, t, dt);
    double a[M] = {t[0], t[1], t[2]}, b[M] = {t[0], t[1], t[2]}, eps = 1e-5;
    a[k] += eps;
    b[k] -= eps;
    double fd = (moving_x(a) - moving_x(b)) / (2 * eps);
    int wrong = far(h[k], fd, 1e-8) + far(fw, h[k], 1e-12);
    printf("moving x: t[%d] %s: reverse %.15g forward %.15g fd %.15g\n", k,
           wrong ? "WRONG" : "ok", h[k], fw, fd);
    bad += wrong;
  }
  printf("%s\n", bad ? "FAILED" : "all ok");
  return bad != 0;
}
