// A pointer another file's allocator returns (`v = vec_alloc(3)`) given to
// a function of the calling file (`fill(v, x)`) that passes it on with
// values with derivatives to another file's function (`vec_set(v, i, x *
// x)`) or stores them itself. Until 2026-12-07 the calling file looked only
// at its own uses of the pointer (analysis/OtherFileResults.cpp): `fill`
// was differentiated with the pointer constant, and the link step refused
// vec_set ("a value with a derivative is stored into memory that has no
// shadow"); the direct `vec_set(v, 0, x * x)` was right. Now the helper is
// analysed with its call's activity, two helpers deep (`fill2` calls
// `fill`; `put` stores through a field itself). Reverse mode against
// forward mode, central differences and the exact derivative, at -O0 and
// -O2; the helpers are noinline (at -O2 an inlined one was right already).
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c vec.c -o vec0.o && %adcc -O0 main.c vec0.o -lm -o prog0 && ./prog0 | FileCheck %s
// RUN: %adcc -O2 -c vec.c -o vec2.o && %adcc -O2 main.c vec2.o -lm -o prog2 && ./prog2 | FileCheck %s
// CHECK: fill ok
// CHECK-NEXT: fill2 ok
// CHECK-NEXT: put ok

//--- vec.h
#include <stddef.h>
struct vec {
  size_t n;
  double *data;
};
struct vec *vec_alloc(size_t n);
void vec_free(struct vec *v);
void vec_set(struct vec *v, size_t i, double x);
double vec_get(const struct vec *v, size_t i);

//--- vec.c
#include "vec.h"
#include <stdlib.h>
struct vec *vec_alloc(size_t n) {
  struct vec *v = malloc(sizeof *v);
  v->n = n;
  v->data = malloc(n * sizeof(double));
  return v;
}
void vec_free(struct vec *v) {
  free(v->data);
  free(v);
}
void vec_set(struct vec *v, size_t i, double x) { v->data[i] = x; }
double vec_get(const struct vec *v, size_t i) { return v->data[i]; }

//--- main.c
#include "vec.h"
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
// v_i = (i + 1) x^2 through another file's setter.
__attribute__((noinline)) static void fill(struct vec *v, double x) {
  for (size_t i = 0; i < v->n; ++i)
    vec_set(v, i, x * x * (double)(i + 1));
}
// v_0 v_2 + v_1 = 3 x^4 + 2 x^2
double f_fill(double x) {
  struct vec *v = vec_alloc(3);
  fill(v, x);
  double r = vec_get(v, 0) * vec_get(v, 2) + vec_get(v, 1);
  vec_free(v);
  return r;
}
double d_fill(double x) { return 12 * x * x * x + 4 * x; }
// Two helpers deep, the value made in the outer one: v_i = (i + 1) sin x^2.
__attribute__((noinline)) void fill2(struct vec *v, double x) {
  fill(v, sqrt(sin(x * x)));
}
// v_1 v_2 = 6 sin(x^2)^2
double f_fill2(double x) {
  struct vec *v = vec_alloc(3);
  fill2(v, x);
  double r = vec_get(v, 1) * vec_get(v, 2);
  vec_free(v);
  return r;
}
double d_fill2(double x) { return 24 * x * sin(x * x) * cos(x * x); }
// The helper stores through the block's field itself.
__attribute__((noinline)) static void put(struct vec *v, double x) {
  v->data[0] = x * x * x;
  v->data[1] = exp(x);
}
// x^3 e^x
double f_put(double x) {
  struct vec *v = vec_alloc(2);
  put(v, x);
  double r = vec_get(v, 0) * vec_get(v, 1);
  vec_free(v);
  return r;
}
double d_put(double x) { return (3 * x * x + x * x * x) * exp(x); }
typedef double (*fn)(double);
static int check(const char *name, fn f, fn d, double g, double t, double x) {
  double fd = (f(x + 1e-6) - f(x - 1e-6)) / 2e-6;
  if (fabs(g - fd) > 1e-6 * (1 + fabs(fd)) || fabs(t - g) > 1e-12 * (1 + fabs(g)) ||
      fabs(g - d(x)) > 1e-12 * (1 + fabs(g))) {
    printf("%s FAIL at %g: reverse %.12g forward %.12g differences %.12g "
           "exact %.12g\n",
           name, x, g, t, fd, d(x));
    return 1;
  }
  return 0;
}
#define CHECK(name)                                                          \
  do {                                                                       \
    int bad = 0;                                                             \
    for (double x = 0.3; x < 1.5; x += 0.4)                                  \
      bad |= check(#name, f_##name, d_##name,                                \
                   __enzyme_autodiff((void *)f_##name, x),                   \
                   __enzyme_fwddiff((void *)f_##name, x, 1.0), x);           \
    puts(bad ? #name " failed" : #name " ok");                               \
  } while (0)
int main(void) {
  CHECK(fill);
  CHECK(fill2);
  CHECK(put);
  return 0;
}
