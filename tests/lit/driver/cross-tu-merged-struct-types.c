// Structs of one layout in several files ({size_t, size_t, double *, ...}
// and {size_t, size_t, unsigned *, ...}, GSL's gsl_vector and
// gsl_vector_uint) are one type in the module the link step links: at
// -O0 the field accesses of the unsigned one named the double one's type,
// whose `double *` field made the pivots read through it the bits of
// doubles (was, in reverse mode, "'uvec_get' returns the bits of a
// floating-point value with a derivative as an integer", GSL's
// gsl_linalg_LU_decomp at apply_pivots). Pivots read through a view
// returned by value: reverse mode against forward mode and the exact
// gradient, at -O0 to -O3.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c vec.c -o vec0.o && %adcc -O0 main.c vec0.o -o prog0 && ./prog0 | FileCheck %s
// RUN: %adcc -O1 -c vec.c -o vec1.o && %adcc -O1 main.c vec1.o -o prog1 && ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c vec.c -o vec2.o && %adcc -O2 main.c vec2.o -o prog2 && ./prog2 | FileCheck %s
// RUN: %adcc -O3 -c vec.c -o vec3.o && %adcc -O3 main.c vec3.o -o prog3 && ./prog3 | FileCheck %s
// CHECK: ok

//--- vec.h
#include <stddef.h>
typedef struct {
  size_t size, stride;
  double *data;
  void *block;
  int owner;
} dvec;
typedef struct {
  size_t size, stride;
  unsigned *data;
  void *block;
  int owner;
} uvec;
typedef struct {
  uvec vector;
} uvec_view;
double dvec_get(const dvec *v, size_t i);
void dvec_set(dvec *v, size_t i, double x);
unsigned uvec_get(const uvec *v, size_t i);
uvec_view uvec_sub(uvec *v, size_t off, size_t n);
double pivoted(dvec *a, uvec *p);

//--- vec.c
#include "vec.h"
double dvec_get(const dvec *v, size_t i) { return v->data[i * v->stride]; }
void dvec_set(dvec *v, size_t i, double x) { v->data[i * v->stride] = x; }
unsigned uvec_get(const uvec *v, size_t i) { return v->data[i * v->stride]; }
uvec_view uvec_sub(uvec *v, size_t off, size_t n) {
  uvec_view w = {{n, v->stride, v->data + off * v->stride, v->block, 0}};
  return w;
}
static void apply(dvec *a, const uvec *p) {
  for (size_t i = 0; i < p->size; ++i) {
    size_t pi = uvec_get(p, i);
    if (pi != i) {
      double t = dvec_get(a, i);
      dvec_set(a, i, dvec_get(a, pi));
      dvec_set(a, pi, t);
    }
  }
}
double pivoted(dvec *a, uvec *p) {
  uvec_view s = uvec_sub(p, 1, p->size - 1);
  apply(a, &s.vector);
  double r = 0;
  for (size_t i = 0; i < a->size; ++i)
    r += dvec_get(a, i) * (i + 1);
  return r;
}

//--- main.c
#include "vec.h"
#include <math.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double f(double *x, unsigned *piv) {
  double a[4] = {x[0], x[1] * x[1], x[2], x[3]};
  dvec v = {4, 1, a, 0, 0};
  uvec p = {4, 1, piv, 0, 0};
  return pivoted(&v, &p);
}
int main(void) {
  double x[4] = {1, 2, 3, 4}, g[4] = {0};
  unsigned piv[4] = {0, 3, 1, 2};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, piv);
  // The pivots swap a[0] and a[3]: f = 4 x0 + 2 x1^2 + 3 x2 + x3.
  double exact[4] = {4, 4 * x[1], 3, 1};
  int bad = 0;
  for (int i = 0; i < 4; ++i) {
    double e[4] = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_const, piv);
    if (g[i] != exact[i] || t != exact[i]) {
      printf("FAIL %d: %g %g %g\n", i, g[i], t, exact[i]);
      bad = 1;
    }
  }
  puts(bad ? "failed" : "ok");
  return bad;
}
