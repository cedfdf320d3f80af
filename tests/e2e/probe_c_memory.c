/* Idiom corpus, C memory as numerical C code lays it out: 2-D arrays
 * through double (*)[N], a VLA passed to a helper, arrays of structs next
 * to structs of arrays, a union of a struct and an array, a tree built with
 * malloc and walked recursively, a realloc'd growing array, a linked list,
 * a flexible array member, alloca, and doubles serialized with memcpy into
 * a byte buffer that also holds an int (reverse mode lost every adjoint at
 * -O0 before: the copies were taken for integers). Both modes, central
 * differences (probe_check.h). */
#include "probe_check.h"

#include <alloca.h>

#define N 3
static void matmul3(double (*c)[N], const double (*a)[N],
                    const double (*b)[N]) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < N; ++k)
        s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
}
static double f_rows(const double *x) {
  double a[N][N], c[N][N];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      a[i][j] = x[i * N + j];
  matmul3(c, (const double(*)[N])a, (const double(*)[N])a);
  double tr = 0;
  for (int i = 0; i < N; ++i)
    tr += c[i][i] * c[i][(i + 1) % N];
  return tr;
}

static double weighted_norm(int n, int m, double a[n][m]) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      s += a[i][j] * a[i][j] * (i + 1);
  return sqrt(s);
}
static double f_vla(const double *x) {
  int n = 2, m = 3;
  double a[n][m];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      a[i][j] = sin(x[i * m + j]) + x[(i * m + j + 1) % 6];
  return weighted_norm(n, m, a);
}

struct particle {
  double x, v;
  int id;
  double m;
};
struct particles {
  double *x, *v, *m;
  int n;
};
static double f_aos_soa(const double *x) {
  struct particle p[3];
  double xs[3], vs[3], ms[3];
  struct particles s = {xs, vs, ms, 3};
  for (int i = 0; i < 3; ++i) {
    p[i].x = x[i];
    p[i].v = x[i + 3];
    p[i].m = 1.0 + i;
    p[i].id = i;
    s.x[i] = x[i + 3];
    s.v[i] = x[i];
    s.m[i] = 2.0 - 0.5 * i;
  }
  double e = 0;
  for (int i = 0; i < s.n; ++i) {
    e += 0.5 * p[i].m * p[i].v * p[i].v + p[i].x * p[(i + 1) % 3].x * p[i].id;
    e += s.m[i] * s.x[i] * s.v[i] * s.v[i];
  }
  return e;
}

typedef union {
  struct {
    double x, y, z;
  } c;
  double v[3];
} vec3;
static double f_union_vec(const double *x) {
  vec3 a, b;
  a.c.x = x[0];
  a.c.y = x[1];
  a.c.z = x[2];
  for (int i = 0; i < 3; ++i)
    b.v[i] = a.v[(i + 1) % 3] * x[i];
  return a.c.x * b.c.z + b.c.y * b.c.y + a.v[2] * b.c.x;
}

struct node {
  double w;
  struct node *l, *r;
};
static struct node *build(const double *x, int lo, int hi) {
  if (lo >= hi)
    return NULL;
  int mid = (lo + hi) / 2;
  struct node *n = malloc(sizeof *n);
  n->w = x[mid];
  n->l = build(x, lo, mid);
  n->r = build(x, mid + 1, hi);
  return n;
}
static double eval_tree(const struct node *n, double depth) {
  if (!n)
    return 1.0;
  return n->w * depth +
         eval_tree(n->l, depth * 0.5) * eval_tree(n->r, depth + n->w);
}
static void free_tree(struct node *n) {
  if (n) {
    free_tree(n->l);
    free_tree(n->r);
    free(n);
  }
}
static double f_tree(const double *x) {
  struct node *root = build(x, 0, 6);
  double v = eval_tree(root, 1.0);
  free_tree(root);
  return v;
}

static double f_realloc(const double *x) {
  int cap = 1, n = 0;
  double *a = malloc(cap * sizeof *a);
  double t = x[0];
  for (int i = 0; i < 13; ++i) {
    if (n == cap) {
      cap *= 2;
      a = realloc(a, cap * sizeof *a);
    }
    t = t * x[1] + cos(t);
    a[n++] = t;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[n - 1 - i];
  free(a);
  return s;
}

struct cell {
  double v;
  struct cell *next;
};
static double f_list(const double *x) {
  struct cell *head = NULL;
  for (int i = 0; i < 5; ++i) {
    struct cell *c = malloc(sizeof *c);
    c->v = x[i] * x[(i + 1) % 5];
    c->next = head;
    head = c;
  }
  double s = 0, prod = 1;
  for (struct cell *c = head; c; c = c->next) {
    s += c->v;
    prod *= 1 + c->v;
  }
  while (head) {
    struct cell *next = head->next;
    free(head);
    head = next;
  }
  return s * prod;
}

struct series {
  int n;
  double v[];
};
static double f_flexible(const double *x) {
  struct series *s = malloc(sizeof *s + 5 * sizeof(double));
  s->n = 5;
  for (int i = 0; i < s->n; ++i)
    s->v[i] = x[i] * x[(i + 2) % 5];
  double r = 0;
  for (int i = 1; i < s->n; ++i)
    r += s->v[i] * s->v[i - 1];
  free(s);
  return r;
}

static double f_alloca(const double *x) {
  int n = 4;
  double *w = alloca(n * sizeof *w);
  for (int i = 0; i < n; ++i)
    w[i] = exp(x[i] * 0.3);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * x[(i + 1) % n];
  return s;
}

/* a message buffer: three doubles, an int tag, a double at an offset that
 * is not a multiple of 8, written and read back at running offsets */
static double f_serialized(const double *x) {
  unsigned char buf[64];
  size_t off = 0;
  for (int i = 0; i < 3; ++i) {
    double t = x[i] * x[i];
    memcpy(buf + off, &t, sizeof t);
    off += sizeof t;
  }
  int tag = 7;
  memcpy(buf + off, &tag, sizeof tag);
  off += sizeof tag;
  double last = x[3];
  memcpy(buf + off, &last, sizeof last);
  double r = 0, u;
  off = 0;
  for (int i = 0; i < 3; ++i) {
    memcpy(&u, buf + off, sizeof u);
    off += sizeof u;
    r += u * (i + 1);
  }
  int got;
  memcpy(&got, buf + off, sizeof got);
  off += sizeof got;
  memcpy(&u, buf + off, sizeof u);
  return r * u * got;
}

int main(void) {
  PROBE(f_rows, 9, 0.1, 0.2, -0.3, 0.4, 0.5, -0.6, 0.7, 0.8, 0.9);
  PROBE(f_vla, 6, 0.1, 0.2, -0.3, 0.4, 0.5, -0.6);
  PROBE(f_aos_soa, 6, 0.1, 0.2, -0.3, 0.4, 0.5, -0.6);
  PROBE(f_union_vec, 3, 0.3, -0.4, 0.5);
  PROBE(f_tree, 6, 0.3, -0.4, 0.5, 0.6, -0.7, 0.8);
  PROBE(f_realloc, 2, 0.3, 0.9);
  PROBE(f_list, 5, 0.3, -0.4, 0.5, 0.6, -0.7);
  PROBE(f_flexible, 5, 0.3, -0.4, 0.5, 0.6, -0.7);
  PROBE(f_alloca, 4, 0.3, -0.4, 0.5, 0.6);
  /* d/dx_i = 2 (i+1) x_i u tag, d/dx3 = r tag */
  double r = 0.09 + 2 * 0.16 + 3 * 0.25;
  double exact[4] = {2 * 0.3 * 0.6 * 7, 2 * 2 * -0.4 * 0.6 * 7,
                     2 * 3 * 0.5 * 0.6 * 7, r * 7};
  PROBE_AT(f_serialized, 4, exact, REV_TOL_FD, 0.3, -0.4, 0.5, 0.6);
  return check_finish();
}
