// A derivative made at link time may replace a null shadow pointer it
// reads from memory by a scratch shadow (support/NullShadowGuards.h), which
// the runtime gives only inside a session that the request enters. The
// requesting file decided whether to enter one from its own derivatives
// alone: one whose derivatives needed no scratch shadow called the other
// file's derivative outside any session, which got null. Until 2026-12-07:
//  * tinyexpr's closure whose context is a `static const` of the
//    requesting file (`{"triple", scaled, TE_CLOSURE1, &three}`), stored
//    in a struct whose shadow keeps a null pointer beside it, the
//    gradient made from -O1 (where the requesting file's own loads are
//    forwarded): the reverse sweep wrote through the null shadow
//    (segmentation fault);
//  * a shadow struct the caller zeroed (`struct work dw = {0}`) whose
//    buffer the other file's function writes and reads back: the values
//    written lost their derivatives (gradient and tangent 1 for 14.5) at
//    every -O level.
// A request whose file calls a derivative made at link time now enters a
// session (and starts the pointer shadows' marks, PointerShadowMarks.h)
// as one whose own derivatives use them does.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c lib.c && %adcc -O0 closure.c lib.o -o closure0 -lm
// RUN: %adcc -O0 zeroed.c lib.o -o zeroed0 -lm
// RUN: ./closure0 | FileCheck %s --check-prefix=CLOSURE
// RUN: ./zeroed0 | FileCheck %s --check-prefix=ZEROED
// RUN: %adcc -O1 -c lib.c && %adcc -O1 closure.c lib.o -o closure1 -lm
// RUN: ./closure1 | FileCheck %s --check-prefix=CLOSURE
// RUN: %adcc -O2 -c lib.c && %adcc -O2 closure.c lib.o -o closure2 -lm
// RUN: %adcc -O2 zeroed.c lib.o -o zeroed2 -lm
// RUN: ./closure2 | FileCheck %s --check-prefix=CLOSURE
// RUN: ./zeroed2 | FileCheck %s --check-prefix=ZEROED
// RUN: %adcc -O3 -c lib.c && %adcc -O3 closure.c lib.o -o closure3 -lm
// RUN: %adcc -O3 zeroed.c lib.o -o zeroed3 -lm
// RUN: ./closure3 | FileCheck %s --check-prefix=CLOSURE
// RUN: ./zeroed3 | FileCheck %s --check-prefix=ZEROED
// CLOSURE: closure of a constant: ok
// ZEROED: zeroed shadow struct: ok

//--- lib.c
struct node {
  double (*fn)(void *, double);
  void *ctx;
  const double *arg;
};
double eval(const struct node *n) { return n->fn(n->ctx, *n->arg); }

struct work {
  double *buf;
  double scale;
};
__attribute__((noinline)) static void fill(double *b, double x, int n) {
  for (int i = 0; i < n; ++i)
    b[i] = (i ? b[i - 1] : 1.0) * x;
}
double powscale(struct work *w, double x, int n) {
  fill(w->buf, x, n);
  return w->buf[n - 1] * w->scale + x;
}

//--- closure.c
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int close_to(double a, double b, double tol) {
  return fabs(a - b) <= tol * (1 + fabs(b));
}
struct node {
  double (*fn)(void *, double);
  void *ctx;
  const double *arg;
};
double eval(const struct node *n);

static const double three = 3;
static double scaled(void *c, double a) { return *(double *)c * a; }

// 3 v0^2 + v1 v0: the closure's context is the constant `three`.
static double closure(double *v) {
  struct node *n = malloc(sizeof *n);
  n->fn = scaled;
  n->ctx = (void *)&three;
  n->arg = &v[0];
  double r = eval(n) * v[0] + v[1] * v[0];
  free(n);
  return r;
}

static int check_closure(void) {
  double v[2] = {1.5, -0.7}, g[2] = {0, 0};
  __enzyme_autodiff((void *)closure, v, g);
  double exact[2] = {6 * v[0] + v[1], v[0]};
  int ok = 1;
  for (int i = 0; i < 2; ++i) {
    double h = 1e-6, p[2] = {v[0], v[1]}, m[2] = {v[0], v[1]};
    p[i] += h;
    m[i] -= h;
    double fd = (closure(p) - closure(m)) / (2 * h);
    double dir[2] = {i == 0, i == 1};
    double t = __enzyme_fwddiff((void *)closure, v, dir);
    ok &= close_to(g[i], exact[i], 1e-14) && close_to(fd, exact[i], 1e-7) &&
          close_to(t, g[i], 1e-14);
    if (!ok)
      printf("closure d/dv%d: reverse %.17g forward %.17g fd %.17g exact "
             "%.17g\n",
             i, g[i], t, fd, exact[i]);
  }
  return ok;
}

int main(void) {
  int ok = check_closure();
  printf("closure of a constant: %s\n", ok ? "ok" : "FAILED");
  return !ok;
}

//--- zeroed.c
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int close_to(double a, double b, double tol) {
  return fabs(a - b) <= tol * (1 + fabs(b));
}
struct work {
  double *buf;
  double scale;
};
double powscale(struct work *w, double x, int n);
extern int enzyme_dup, enzyme_const;

// d/dx (scale x^3 + x) and d/dscale x^3, the buffer's shadow left null.
static int check_zeroed(void) {
  double buf[3], x = 1.5;
  struct work w = {buf, 2.0}, dw = {0, 0};
  double r = __enzyme_autodiff((void *)powscale, enzyme_dup, &w, &dw, x,
                               enzyme_const, 3);
  struct work tw = {0, 0};
  double t = __enzyme_fwddiff((void *)powscale, enzyme_dup, &w, &tw, x, 1.0,
                              enzyme_const, 3);
  double h = 1e-6;
  double fd = (powscale(&w, x + h, 3) - powscale(&w, x - h, 3)) / (2 * h);
  double exact = 3 * w.scale * x * x + 1;
  int ok = close_to(r, exact, 1e-14) && close_to(t, r, 1e-14) &&
           close_to(fd, exact, 1e-7) && close_to(dw.scale, x * x * x, 1e-14);
  if (!ok)
    printf("zeroed: reverse %.17g forward %.17g fd %.17g exact %.17g; "
           "d/dscale %.17g exact %.17g\n",
           r, t, fd, exact, dw.scale, x * x * x);
  return ok;
}

int main(void) {
  int ok = check_zeroed();
  printf("zeroed shadow struct: %s\n", ok ? "ok" : "FAILED");
  return !ok;
}
