// A pointer that a function of another file returns, called without
// arguments with derivatives: into the memory of an allocating function's
// result (`ws_alloc`, two mallocs) the differentiated code stores values
// with derivatives, which its shadow, allocated by the function's
// derivative made at link time, keeps (was the error "a value with a
// derivative is stored into memory that has no shadow"); a getter of
// another file's static data only read (`apply(get_config(), x)`) stays
// constant; given to another file's function with values with derivatives
// (`apply_ext`), and where its memory receives derivatives (`get_state`,
// an error at the call until 2026-12-07), it returns the static's shadow
// global, made when the program is linked (cross-tu-accessor-stores.c).
// Reverse mode against forward mode and central differences, at -O0 to
// -O3.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c ws.c -o ws0.o && %adcc -O0 main.c ws0.o -lm -o prog0 && ./prog0 | FileCheck %s
// RUN: %adcc -O1 -c ws.c -o ws1.o && %adcc -O1 main.c ws1.o -lm -o prog1 && ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c ws.c -o ws2.o && %adcc -O2 main.c ws2.o -lm -o prog2 && ./prog2 | FileCheck %s
// RUN: %adcc -O3 -c ws.c -o ws3.o && %adcc -O3 main.c ws3.o -lm -o prog3 && ./prog3 | FileCheck %s
// CHECK: ok
// RUN: %adcc -O0 state.c ws0.o -lm -o state0 && ./state0 | FileCheck --check-prefix=STATE %s
// RUN: %adcc -O2 state.c ws2.o -lm -o state2 && ./state2 | FileCheck --check-prefix=STATE %s
// STATE: state 6.75 6.75 6.750000{{$}}

//--- ws.h
#include <stddef.h>
struct ws {
  size_t n;
  double *a;
};
struct ws *ws_alloc(size_t n);
void ws_free(struct ws *w);
struct cfg {
  double scale;
  int n;
};
const struct cfg *get_config(void);
struct cfg *get_state(void);
double apply_ext(const struct cfg *c, double x);

//--- ws.c
#include "ws.h"
#include <stdlib.h>
struct ws *ws_alloc(size_t n) {
  struct ws *w = malloc(sizeof *w);
  w->n = n;
  w->a = malloc(n * sizeof(double));
  return w;
}
void ws_free(struct ws *w) {
  free(w->a);
  free(w);
}
static struct cfg config = {2.5, 3};
const struct cfg *get_config(void) { return &config; }
static struct cfg state;
struct cfg *get_state(void) { return &state; }
double apply_ext(const struct cfg *c, double x) { return c->scale * x; }

//--- main.c
#include "ws.h"
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
static double apply(const struct cfg *c, double x) {
  return c->scale * x * x + c->n;
}
double f(double x) {
  struct ws *w = ws_alloc(4);
  w->a[0] = x * x;
  for (size_t i = 1; i < w->n; ++i)
    w->a[i] = sin(w->a[i - 1]) + x;
  double r = w->a[w->n - 1] * x + apply(get_config(), x) +
             apply_ext(get_config(), x * x);
  ws_free(w);
  return r;
}
int main(void) {
  int bad = 0;
  for (double x = -1.1; x < 1.5; x += 0.7) {
    double g = __enzyme_autodiff((void *)f, x);
    double t = __enzyme_fwddiff((void *)f, x, 1.0);
    double fd = (f(x + 1e-6) - f(x - 1e-6)) / 2e-6;
    if (fabs(g - fd) > 1e-6 * (1 + fabs(fd)) || fabs(t - g) > 1e-12) {
      printf("FAIL %g: %.12g %.12g %.12g\n", x, g, t, fd);
      bad = 1;
    }
  }
  puts(bad ? "failed" : "ok");
  return bad;
}

//--- state.c
#include "ws.h"
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double g(double x) {
  struct cfg *s = get_state();
  s->scale = x * x;
  return s->scale * x;
}
int main(void) {
  // d/dx x^3 = 3 x^2 = 6.75 at 1.5: reverse, forward, central differences.
  double r = __enzyme_autodiff((void *)g, 1.5);
  double t = __enzyme_fwddiff((void *)g, 1.5, 1.0);
  double fd = (g(1.5 + 1e-6) - g(1.5 - 1e-6)) / 2e-6;
  printf("state %.12g %.12g %.6f\n", r, t, fd);
  return 0;
}
