/* Reverse mode through realloc inside the differentiated function: a
 * buffer grown by doubling in a loop (the push_back pattern) with values
 * stored and updated before and after each realloc, a push_back through a
 * helper on a struct, a shrinking realloc, realloc(NULL, n) and
 * realloc(p, 0), blocks freed after their realloc, an array of pointers
 * grown by realloc, and float data.  Central differences, closed forms and
 * forward mode (dot-product tests; forward mode reallocates tangents). */
#include "rev_check.h"

#define N 5

/* push_back by doubling, from capacity 1: the last element is updated
 * before each realloc and the first one after it */
static double grow(const double *x) {
  int cap = 1, len = 0;
  double *buf = (double *)malloc(cap * sizeof *buf);
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < N; ++i) {
      if (len == cap) {
        buf[len - 1] += sin(x[i]);
        cap *= 2;
        buf = (double *)realloc(buf, cap * sizeof *buf);
        buf[0] = buf[0] * x[i] + 0.1;
      }
      buf[len++] = x[i] * x[(i + r) % N] + r;
    }
  double s = 0;
  for (int j = 0; j < len; ++j)
    s += buf[j] * buf[j] * (j % 4 + 1) * 0.01;
  free(buf);
  return s;
}

/* the same through a helper that owns the growth */
typedef struct {
  double *data;
  int len, cap;
} vec;
static void push(vec *v, double value) {
  if (v->len == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 2;
    v->data = (double *)realloc(v->data, v->cap * sizeof(double));
  }
  v->data[v->len++] = value;
}
static double vec_sum(const double *x) {
  vec v = {NULL, 0, 0};
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < N; ++i)
      push(&v, cos(x[i]) * (r + 1) + x[(i + 1) % N]);
  double s = 0;
  for (int j = 0; j < v.len; ++j)
    s += v.data[j] * v.data[(j + 3) % v.len];
  free(v.data);
  return s;
}

/* a shrinking realloc: the kept elements carry their adjoints back */
static double shrink(const double *x) {
  double *b = (double *)malloc(8 * sizeof(double));
  for (int i = 0; i < 8; ++i)
    b[i] = x[i % N] * (i + 1) + cos(x[(i + 2) % N]);
  b = (double *)realloc(b, 3 * sizeof(double));
  double s = b[0] * b[1] + b[2] * b[2];
  b[1] = s * x[0];
  s += b[1] * b[0];
  free(b);
  return s;
}

/* realloc(NULL, n) allocates; realloc(p, 0) frees; a buffer grown from
 * NULL by realloc alone */
static double from_null(const double *x) {
  double *b = (double *)realloc(NULL, N * sizeof(double));
  for (int i = 0; i < N; ++i)
    b[i] = exp(0.3 * x[i]);
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += b[i] * x[(i + 1) % N];
  b = (double *)realloc(b, 0);
  free(b);
  double *c = NULL;
  int cap = 0;
  for (int i = 0; i < N; ++i) {
    if (i == cap) {
      cap = cap ? 2 * cap : 1;
      c = (double *)realloc(c, cap * sizeof *c);
    }
    c[i] = s * x[i];
  }
  double t = 0;
  for (int i = 0; i < N; ++i)
    t += c[i] * c[i];
  free(c);
  return t;
}

/* an array of pointers grown by realloc: the moved pointers bring their
 * shadows along */
static double rows(const double *x) {
  double **r = NULL;
  int cap = 0;
  for (int i = 0; i < N; ++i) {
    if (i == cap) {
      cap = cap ? 2 * cap : 1;
      r = (double **)realloc(r, cap * sizeof *r);
    }
    r[i] = (double *)malloc(2 * sizeof(double));
    r[i][0] = x[i] * x[i];
    r[i][1] = sin(x[i]);
  }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += r[i][0] * r[(i + 1) % N][1];
  for (int i = 0; i < N; ++i)
    free(r[i]);
  free(r);
  return s;
}

/* float data: buf[r * n + i] = (r + 1) x_i^2, weighted by (j % 3 + 1) */
static float fpush(const float *x, int n) {
  int cap = 2, len = 0;
  float *buf = (float *)malloc(cap * sizeof *buf);
  for (int r = 0; r < 3; ++r)
    for (int i = 0; i < n; ++i) {
      if (len == cap) {
        cap *= 2;
        buf = (float *)realloc(buf, cap * sizeof *buf);
      }
      buf[len++] = x[i] * x[i] * (float)(r + 1);
    }
  float s = 0;
  for (int j = 0; j < len; ++j)
    s += buf[j] * (float)(j % 3 + 1);
  free(buf);
  return s;
}

/* The gradient of f: R^N -> R at a random point, against central
 * differences and forward mode. */
#define CHECK_FN(f)                                                            \
  do {                                                                         \
    double x[N], g[N] = {0}, v[N];                                             \
    for (int i = 0; i < N; ++i)                                                \
      x[i] = 0.4 + 0.5 * rev_rand();                                           \
    __enzyme_autodiff((void *)f, x, g);                                        \
    printf(#f ": d/dx0 = %.12g\n", g[0]);                                      \
    CHECK_GRAD(f, x, N, g, NULL);                                              \
    rev_dir(g, v, N);                                                          \
    CHECK_DOT(g, v, N, __enzyme_fwddiff((void *)f, x, v));                     \
  } while (0)

int main(void) {
  CHECK_FN(grow);
  CHECK_FN(vec_sum);
  CHECK_FN(shrink);
  CHECK_FN(from_null);
  CHECK_FN(rows);
  {
    float x[N] = {0.3f, -1.2f, 0.8f, 2.0f, -0.4f}, g[N] = {0}, v[N];
    __enzyme_autodiff_void((void *)fpush, x, g, enzyme_const, N);
    for (int i = 0; i < N; ++i) {
      double e = 0;
      for (int r = 0; r < 3; ++r)
        e += 2.0 * (r + 1) * x[i] * ((r * N + i) % 3 + 1);
      CHECK_CLOSE(g[i], e, 1e-6);
    }
    double dot = 0;
    for (int i = 0; i < N; ++i) {
      v[i] = (float)rev_rand();
      dot += (double)g[i] * v[i];
    }
    CHECK_CLOSE(__enzyme_fwddiff_f((void *)fpush, x, v, N), dot, 1e-5);
  }
  return check_finish();
}
