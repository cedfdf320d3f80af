/* Idiom corpus, a C library in the style of GSL: blocks, vectors and
 * matrices as structs allocated by constructor functions (a struct whose
 * data pointer is a second allocation, freed by a destructor that checks
 * an owner flag), accessors through a stride and a row pitch, a column
 * as a non-owning view returned by value, a matrix-vector product and dot
 * products through the accessors, and a function object as a struct of a
 * function pointer and a void * parameter block. Both modes, central
 * differences (probe_check.h). No bug found when written (2026-12-06). */
#include "probe_check.h"
#include <stdlib.h>
typedef struct { size_t size; double *data; int owner; } block_t;
typedef struct { size_t size, stride; double *data; block_t *block; int owner; } vec_t;
typedef struct { size_t size1, size2, tda; double *data; block_t *block; int owner; } mat_t;
static block_t *block_alloc(size_t n) {
  block_t *b = malloc(sizeof *b);
  if (!b) return NULL;
  b->data = malloc(n * sizeof(double));
  if (!b->data) { free(b); return NULL; }
  b->size = n; b->owner = 1;
  return b;
}
static void block_free(block_t *b) { free(b->data); free(b); }
static vec_t *vec_alloc(size_t n) {
  vec_t *v = malloc(sizeof *v);
  v->block = block_alloc(n);
  v->data = v->block->data; v->size = n; v->stride = 1; v->owner = 1;
  return v;
}
static void vec_free(vec_t *v) { if (v->owner) block_free(v->block); free(v); }
static mat_t *mat_alloc(size_t n1, size_t n2) {
  mat_t *m = malloc(sizeof *m);
  m->block = block_alloc(n1 * n2);
  m->data = m->block->data; m->size1 = n1; m->size2 = n2; m->tda = n2; m->owner = 1;
  return m;
}
static void mat_free(mat_t *m) { if (m->owner) block_free(m->block); free(m); }
static inline double vget(const vec_t *v, size_t i) { return v->data[i * v->stride]; }
static inline void vset(vec_t *v, size_t i, double x) { v->data[i * v->stride] = x; }
static inline double mget(const mat_t *m, size_t i, size_t j) { return m->data[i * m->tda + j]; }
static inline void mset(mat_t *m, size_t i, size_t j, double x) { m->data[i * m->tda + j] = x; }
/* a column of a matrix as a vector view (stride tda, not owning) */
static vec_t column(mat_t *m, size_t j) {
  vec_t v = {m->size1, m->tda, m->data + j, m->block, 0};
  return v;
}
static void dgemv(double alpha, const mat_t *A, const vec_t *x, double beta, vec_t *y) {
  for (size_t i = 0; i < A->size1; ++i) {
    double s = 0;
    for (size_t j = 0; j < A->size2; ++j) s += mget(A, i, j) * vget(x, j);
    vset(y, i, alpha * s + beta * vget(y, i));
  }
}
static double ddot(const vec_t *a, const vec_t *b) {
  double s = 0;
  for (size_t i = 0; i < a->size; ++i) s += vget(a, i) * vget(b, i);
  return s;
}
typedef struct { double (*function)(double x, void *params); void *params; } func_t;
static double eval(const func_t *F, double x) { return F->function(x, F->params); }
static double cubic(double x, void *params) {
  double *c = params;
  return ((c[3] * x + c[2]) * x + c[1]) * x + c[0];
}
static double f_gsl(const double *x) {
  mat_t *A = mat_alloc(3, 3);
  vec_t *v = vec_alloc(3), *y = vec_alloc(3);
  for (size_t i = 0; i < 3; ++i) {
    vset(v, i, x[9 + i]);
    vset(y, i, 0.5);
    for (size_t j = 0; j < 3; ++j) mset(A, i, j, x[i * 3 + j]);
  }
  dgemv(1.5, A, v, 0.25, y);
  vec_t c1 = column(A, 1);
  double r = ddot(y, &c1) + ddot(y, y);
  double coeffs[4] = {x[0], vget(y, 0), 0.5, vget(y, 2)};
  func_t F = {cubic, coeffs};
  r += eval(&F, 0.7) * eval(&F, x[10]);
  vec_free(y); vec_free(v); mat_free(A);
  return r;
}
int main(void) {
  PROBE(f_gsl, 12, 0.4, 2.0, -0.3, 1.5, 0.5, 0.2, 0.3, -0.6, 1.8, 0.7, -0.2, 0.9);
  return check_finish();
}
