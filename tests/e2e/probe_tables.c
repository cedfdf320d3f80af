/* Idiom corpus, tables and globals as C libraries write them: a global
 * table of named operations holding libm functions and the file's own
 * through pointers, a dispatch on a name with strcmp, a callback with a
 * void * context whose struct holds an active parameter (a quadrature
 * routine), a static cache of constant coefficients filled on the first
 * call, a non-constant global parameter struct set before the call and
 * only read inside it, a global accumulator the function writes and reads
 * back, __restrict__ helpers, a sparse matrix assembled in coordinate form
 * (repeated index pairs, scatter-add), and a piecewise-linear table lookup
 * with bsearch. Both modes, central differences (probe_check.h). */
#include "probe_check.h"

#include <stdlib.h>
#include <string.h>

static double square(double v) { return v * v; }
static double softplus(double v) { return log1p(exp(v)); }

struct op {
  const char *name;
  double (*fn)(double);
  double weight;
};
static const struct op ops[] = {
    {"sin", sin, 1.0},         {"exp", exp, 0.25},   {"square", square, 2.0},
    {"softplus", softplus, 1.5}, {"atan", atan, -1.0}, {"cbrt", cbrt, 0.5},
};
#define NOPS (int)(sizeof ops / sizeof *ops)

static const struct op *find_op(const char *name) {
  for (int i = 0; i < NOPS; ++i)
    if (strcmp(ops[i].name, name) == 0)
      return &ops[i];
  return NULL;
}

/* each x[i] through every operation of the table, weighted */
static double f_table(const double *x) {
  double s = 0;
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < NOPS; ++k)
      s += ops[k].weight * ops[k].fn(x[i] * (k + 1) * 0.3);
  return s;
}

/* a pipeline named by strings, resolved with strcmp at run time */
static const char *pipeline[] = {"square", "softplus", "sin", "atan"};
static double f_named(const double *x) {
  double v = x[0] + 0.5 * x[1];
  for (int i = 0; i < 4; ++i) {
    const struct op *o = find_op(pipeline[i]);
    v = o->fn(v) + 0.1 * x[i % 3];
  }
  return v;
}

/* composite Simpson rule over a callback with a void * context */
struct decay {
  double rate, amplitude;
  int terms;
};
static double decay_fn(double t, void *ctx) {
  const struct decay *d = (const struct decay *)ctx;
  double s = 0;
  for (int k = 1; k <= d->terms; ++k)
    s += d->amplitude * exp(-d->rate * k * t) / k;
  return s;
}
static double simpson(double (*f)(double, void *), void *ctx, double a,
                      double b, int n) {
  double h = (b - a) / n, s = f(a, ctx) + f(b, ctx);
  for (int i = 1; i < n; ++i)
    s += (i % 2 ? 4 : 2) * f(a + i * h, ctx);
  return s * h / 3;
}
static double f_quadrature(const double *x) {
  struct decay d = {x[0], x[1], 3};
  return simpson(decay_fn, &d, 0.0, x[2], 16);
}

/* a static cache of constant coefficients (Chebyshev nodes' weights),
 * filled once; a global parameter struct set before the call */
static int cache_ready;
static double cache[8];
struct params {
  double scale;
  int order;
};
struct params g_params = {1.0, 6};
static const double *coefficients(void) {
  if (!cache_ready) {
    for (int k = 0; k < 8; ++k)
      cache[k] = cos((2 * k + 1) * M_PI / 16) / (k + 1);
    cache_ready = 1;
  }
  return cache;
}
static double f_cached(const double *x) {
  const double *c = coefficients();
  double t = tanh(x[0] * g_params.scale), p = 0;
  for (int k = g_params.order - 1; k >= 0; --k) /* Horner */
    p = p * t + c[k] * x[1 + k % 2];
  return p;
}

/* a global accumulator written and read back within the call */
static double g_energy;
static void add_energy(double e) { g_energy += e; }
static double f_global_accumulator(const double *x) {
  g_energy = 0;
  for (int i = 0; i < 3; ++i)
    add_energy(x[i] * x[i] * (i + 1));
  add_energy(sin(x[0] * x[2]));
  return g_energy * g_energy;
}

/* __restrict__ helpers: y = a x + y, dot */
static void axpy(int n, double a, const double *__restrict__ xs,
                 double *__restrict__ ys) {
  for (int i = 0; i < n; ++i)
    ys[i] += a * xs[i];
}
static double dot(int n, const double *__restrict__ a,
                  const double *__restrict__ b) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}
static double f_restrict(const double *x) {
  double y[4] = {1, 2, 3, 4}, z[4];
  for (int i = 0; i < 4; ++i)
    z[i] = x[i] * x[(i + 1) % 4];
  axpy(4, x[0], z, y);
  axpy(4, -0.5, x, y);
  return dot(4, y, z) + dot(4, y, y);
}

/* coordinate-form assembly with repeated entries, then y = A x, |y|^2 */
static const int rows[] = {0, 1, 2, 0, 3, 1, 2, 0};
static const int cols[] = {0, 1, 2, 3, 3, 0, 2, 0}; /* (0,0) twice, (2,2) */
static double f_sparse(const double *x) {
  double a[4][4] = {{0}}, y[4] = {0};
  for (int k = 0; k < 8; ++k)
    a[rows[k]][cols[k]] += x[k % 4] * (k + 1) * 0.25 + sin(x[(k + 1) % 4]);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      y[i] += a[i][j] * x[j];
  return y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3];
}

/* piecewise-linear interpolation in a table of knots found with bsearch */
static const double knots[] = {0.0, 0.5, 1.0, 1.5, 2.5, 4.0};
static const double values[] = {0.0, 0.3, 0.2, 0.9, 1.4, 1.0};
static int interval(const void *key, const void *elem) {
  double t = *(const double *)key;
  const double *k = (const double *)elem;
  if (t < k[0])
    return -1;
  if (t >= k[1])
    return 1;
  return 0;
}
static double lookup(double t) {
  const double *k = (const double *)bsearch(&t, knots, 5, sizeof *knots,
                                            interval);
  if (!k)
    return t < knots[0] ? values[0] : values[5];
  size_t i = (size_t)(k - knots);
  double w = (t - knots[i]) / (knots[i + 1] - knots[i]);
  return (1 - w) * values[i] + w * values[i + 1];
}
static double f_lookup(const double *x) {
  return lookup(x[0]) * x[1] + lookup(x[1] * x[1]) + lookup(x[0] + x[1]);
}

int main(void) {
  PROBE(f_table, 4, 0.3, -0.7, 1.1, 0.45);
  PROBE(f_named, 3, 0.4, -0.2, 0.7);
  PROBE(f_quadrature, 3, 0.8, 1.3, 2.0);
  g_params.scale = 0.7;
  PROBE(f_cached, 3, 0.35, 1.2, -0.8);
  g_params.order = 7;
  PROBE(f_cached, 3, -0.5, 0.6, 0.9);
  PROBE(f_global_accumulator, 3, 0.6, -0.4, 1.2);
  PROBE(f_restrict, 4, 0.5, -1.0, 0.75, 0.2);
  PROBE(f_sparse, 4, 0.3, 0.8, -0.5, 1.1);
  PROBE(f_lookup, 2, 0.7, 1.3);
  /* exact values inside the intervals: d/dx0 of lookup(x0) x1 + ... */
  {
    double g[2] = {0}, x[2] = {0.7, 1.3};
    __enzyme_autodiff((void *)f_lookup, enzyme_dup, x, g);
    double s1 = (0.2 - 0.3) / 0.5, s3 = (1.4 - 0.9) / 1.0;
    double want0 = s1 * x[1] + s3;                    /* 2.0 in [1.5, 2.5) */
    double want1 = lookup(x[0]) + 2 * x[1] * s3 + s3; /* 1.69 in [1.5, 2.5) */
    CHECK_CLOSE(g[0], want0, 1e-12);
    CHECK_CLOSE(g[1], want1, 1e-12);
  }
  return check_finish();
}
