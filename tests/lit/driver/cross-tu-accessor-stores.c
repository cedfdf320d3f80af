// Values with derivatives stored into memory that another file's function
// allocated, by another file's functions: `v = vec_alloc(3); vec_set(v, 0,
// x * x);`, GSL's `gsl_vector_alloc` with its accessors out of line. The
// pointer vec_alloc returns gets a shadow (allocated by its derivative made
// at link time) because it is given to another file's function with values
// with derivatives; until 2026-12-07 it was constant, and the link step
// refused vec_set: "a value with a derivative is stored into memory that has
// no shadow". A getter of another file's static data given to another
// file's function with such values: numbers only (`apply_ext(get_config(),
// x)`), the static gets a shadow at link time; data holding pointers only
// read (`dot_ext(get_ctx(), x)`) gets a null shadow, which the derivatives
// given it guard; a getter whose data the caller writes (`get_state()->scale
// = x * x`, refused at link time until 2026-12-07) has a shadow too. Data
// holding pointers written with derivatives has none: a located error at
// the call. Reverse mode against forward mode, central differences and the
// exact derivative, at -O0 to -O3.
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %adcc -O0 -c vec.c -o vec0.o && %adcc -O0 main.c vec0.o -lm -o prog0 && ./prog0 | FileCheck %s
// RUN: %adcc -O1 -c vec.c -o vec1.o && %adcc -O1 main.c vec1.o -lm -o prog1 && ./prog1 | FileCheck %s
// RUN: %adcc -O2 -c vec.c -o vec2.o && %adcc -O2 main.c vec2.o -lm -o prog2 && ./prog2 | FileCheck %s
// RUN: %adcc -O3 -c vec.c -o vec3.o && %adcc -O3 main.c vec3.o -lm -o prog3 && ./prog3 | FileCheck %s
// CHECK: vec ok
// CHECK-NEXT: config ok
// CHECK-NEXT: ctx ok
// CHECK-NEXT: state ok
// RUN: not %adcc -O0 holder.c vec0.o -lm -o bad0 2>&1 | FileCheck --check-prefix=HOLDER %s
// RUN: not %adcc -O2 holder.c vec2.o -lm -o bad2 2>&1 | FileCheck --check-prefix=HOLDER %s
// HOLDER: holder.c:4:22: error: cannot differentiate the call of 'get_holder': the caller stores values with derivatives into the memory its result points to, or gives it to another file's function with such values, and that memory has no shadow
// HOLDER-NOT: error: cannot
// The same data only read, also given to a function of the calling file,
// whose derivative that file made without guards: the error too.
// RUN: not %adcc -O0 own.c vec0.o -lm -o own0 2>&1 | FileCheck --check-prefix=OWN %s
// RUN: not %adcc -O2 own.c vec2.o -lm -o own2 2>&1 | FileCheck --check-prefix=OWN %s
// OWN: own.c:7:25: error: cannot differentiate the call of 'get_ctx'

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
struct cfg {
  double scale;
  int n;
};
const struct cfg *get_config(void);
double apply_ext(const struct cfg *c, double x);
struct cfg *get_state(void);
struct ctx {
  const double *w;
  int n;
};
const struct ctx *get_ctx(void);
double dot_ext(const struct ctx *c, double x);
struct holder {
  double *buf;
  double v;
};
struct holder *get_holder(void);

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
static struct cfg config = {2.5, 3};
const struct cfg *get_config(void) { return &config; }
double apply_ext(const struct cfg *c, double x) {
  return c->scale * x * x + c->n;
}
static struct cfg state;
struct cfg *get_state(void) { return &state; }
static const double weights[3] = {1.5, -2.0, 0.25};
static struct ctx context = {weights, 3};
const struct ctx *get_ctx(void) { return &context; }
double dot_ext(const struct ctx *c, double x) {
  double s = 0, p = 1;
  for (int i = 0; i < c->n; ++i) {
    p *= x;
    s += c->w[i] * p;
  }
  return s;
}
static double buffer[2];
static struct holder holder = {buffer, 0};
struct holder *get_holder(void) { return &holder; }

//--- main.c
#include "vec.h"
#include <math.h>
#include <stdio.h>
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
// vec_alloc's block, filled and read by vec.c's accessors.
double f_vec(double x) {
  struct vec *v = vec_alloc(3);
  vec_set(v, 0, x * x);
  vec_set(v, 1, sin(x));
  vec_set(v, 2, vec_get(v, 0) * vec_get(v, 1));
  double r = vec_get(v, 2);
  vec_free(v);
  return r;
}
double d_vec(double x) { return 2 * x * sin(x) + x * x * cos(x); }
// x * (2.5 x^2 + 3)
double f_config(double x) { return apply_ext(get_config(), x) * x; }
double d_config(double x) { return 7.5 * x * x + 3; }
// x * (1.5 x - 2 x^2 + 0.25 x^3)
double f_ctx(double x) { return dot_ext(get_ctx(), x) * x; }
double d_ctx(double x) { return 3 * x - 6 * x * x + x * x * x; }
// x^3 + (x^2 x^2 + 0): the static written, then read by another file.
double f_state(double x) {
  struct cfg *s = get_state();
  s->scale = x * x;
  s->n = 0;
  return s->scale * x + apply_ext(s, x);
}
double d_state(double x) { return 3 * x * x + 4 * x * x * x; }
typedef double (*fn)(double);
static int check(const char *name, fn f, fn d, double g, double t, double x) {
  double fd = (f(x + 1e-6) - f(x - 1e-6)) / 2e-6;
  if (fabs(g - fd) > 1e-6 * (1 + fabs(fd)) || fabs(t - g) > 1e-12 ||
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
    for (double x = -1.1; x < 1.5; x += 0.7)                                 \
      bad |= check(#name, f_##name, d_##name,                                \
                   __enzyme_autodiff((void *)f_##name, x),                   \
                   __enzyme_fwddiff((void *)f_##name, x, 1.0), x);           \
    puts(bad ? #name " failed" : #name " ok");                               \
  } while (0)
int main(void) {
  CHECK(vec);
  CHECK(config);
  CHECK(ctx);
  CHECK(state);
  return 0;
}

//--- holder.c
#include "vec.h"
double __enzyme_autodiff(void *, ...);
double g(double x) {
  struct holder *h = get_holder();
  h->v = x * x;
  return h->v * x;
}
int main(void) { return __enzyme_autodiff((void *)g, 1.5) > 0 ? 0 : 1; }

//--- own.c
#include "vec.h"
double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) static double first(const struct ctx *c, double x) {
  return c->w[0] * x;
}
double f(double x) {
  const struct ctx *c = get_ctx();
  return dot_ext(c, x) * first(c, x);
}
int main(void) { return __enzyme_autodiff((void *)f, 0.5) != 0 ? 0 : 1; }
