/* Forward mode through memory: structs and arrays of structs, pointer
 * arithmetic, stack arrays, memcpy/memmove/memset, malloc/calloc/realloc/
 * free inside the differentiated function, aggregate copies, overlapping
 * memmove, in-place updates, values overwritten after use, results written
 * through duplicated pointers. */
#include "fwd_check.h"
#include <string.h>

void __enzyme_fwddiff_void(void *, ...);

typedef struct {
  double x, y, z;
} vec3;
typedef struct {
  vec3 pos;
  double mass;
  int tag;
} body;

/* struct fields through a duplicated pointer: potential energy-like sum */
static double energy(const body *b, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      double dx = b[i].pos.x - b[j].pos.x, dy = b[i].pos.y - b[j].pos.y,
             dz = b[i].pos.z - b[j].pos.z;
      e += b[i].mass * b[j].mass / sqrt(dx * dx + dy * dy + dz * dz);
    }
  return e;
}

/* struct passed and returned by value inside the function */
static vec3 cross(vec3 a, vec3 b) {
  vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
            a.x * b.y - a.y * b.x};
  return r;
}
static double triple(const double *v) {
  vec3 a = {v[0], v[1], v[2]}, b = {v[3], v[4], v[5]}, c = {v[6], v[7], v[8]};
  vec3 axb = cross(a, b);
  return axb.x * c.x + axb.y * c.y + axb.z * c.z;
}

/* structs passed by value to the differentiated function, with a shadow
 * struct: in one register ({float, float}) and in memory.  (Structs the C ABI
 * splits into two IR parameters are an error at the request, not yet
 * supported: lit errors/struct-by-value.c.) */
typedef struct {
  float a, b;
} ff;
static double byval_ff(ff p) { return (double)p.a * p.b; }
static double byval_vec3(vec3 v) { return v.x * v.y * v.z; }

/* pointer arithmetic: walk with a moving pointer, negative offsets */
static double walk(const double *p, int n) {
  const double *end = p + n, *q = p + 1;
  double s = 0;
  for (; q < end; ++q)
    s += q[0] * q[-1];
  return s;
}

/* stack array, memcpy/memmove/memset, in-place smoothing */
static double stack_ops(const double *in, int n) {
  double buf[16], tmp[16];
  memset(buf, 0, sizeof buf);
  memcpy(buf + 1, in, n * sizeof(double)); /* buf[1..n] = in */
  memmove(buf + 2, buf + 1, n * sizeof(double)); /* shift right by one */
  for (int i = 1; i < n + 2; ++i)                 /* in-place update */
    buf[i] = buf[i] * buf[i] + 0.5 * buf[i - 1];
  memcpy(tmp, buf, sizeof buf);
  double s = 0;
  for (int i = 0; i < 16; ++i)
    s += tmp[i] * (i + 1);
  return s;
}

/* heap: malloc, realloc to grow, calloc, free */
static double heap_ops(const double *in, int n) {
  double *a = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    a[i] = in[i] * in[i];
  a = (double *)realloc(a, 2 * n * sizeof(double));
  for (int i = n; i < 2 * n; ++i)
    a[i] = a[i - n] * in[i - n];
  double *c = (double *)calloc(n, sizeof(double));
  for (int i = 0; i < 2 * n; ++i)
    c[i % n] += a[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += sin(c[i]);
  free(c);
  free(a);
  return s;
}

/* in-place update through a duplicated output array (void function):
 * y <- A y + b, three times, A a fixed rotation-scaling */
static void iterate(double *y, const double *b, int steps) {
  for (int s = 0; s < steps; ++s) {
    double y0 = 0.8 * y[0] - 0.6 * y[1] + b[0];
    double y1 = 0.6 * y[0] + 0.8 * y[1] + b[1];
    y[0] = y0 * y0 * 0.1 + y0; /* overwritten after use */
    y[1] = y1;
  }
}

/* array of pointers in a struct, and a struct holding an array */
typedef struct {
  double coef[4];
  int n;
} poly;
static double eval_poly(const poly *p, double x) {
  double r = 0;
  for (int i = p->n - 1; i >= 0; --i)
    r = r * x + p->coef[i];
  return r;
}

/* aggregate copies and swaps of structs, overlapping memmove in both
 * directions, realloc that shrinks */
typedef struct {
  double x, y;
  int tag;
  double w[3];
} rec;
static double shuffle(const rec *in, int n) {
  rec tmp[4];
  for (int i = 0; i < n; ++i)
    tmp[i] = in[i];
  rec t = tmp[0];
  tmp[0] = tmp[n - 1];
  tmp[n - 1] = t;
  memmove(&tmp[0].w[1], &tmp[0].w[0], 2 * sizeof(double));
  memmove(&tmp[1].w[0], &tmp[1].w[1], 2 * sizeof(double));
  double *h = (double *)malloc(8 * sizeof(double));
  for (int i = 0; i < 8; ++i)
    h[i] = tmp[i % n].x * tmp[i % n].w[i % 3];
  h = (double *)realloc(h, 3 * sizeof(double));
  double s = h[0] + h[1] * h[2];
  free(h);
  for (int i = 0; i < n; ++i)
    s += tmp[i].y * tmp[i].w[0] * (i + 1);
  return s;
}
static double shuffle_closed_form_d(const rec *in, const rec *d) {
  /* after the swap: tmp = in[3], in[1], in[2], in[0]; then
   * tmp0.w = (w0, w0, w1) of in[3]; tmp1.w = (w1, w2, w2) of in[1] */
  double x[4], dx[4], y[4], dy[4], w[4][3], dw[4][3];
  const int perm[4] = {3, 1, 2, 0};
  for (int i = 0; i < 4; ++i) {
    x[i] = in[perm[i]].x;
    dx[i] = d[perm[i]].x;
    y[i] = in[perm[i]].y;
    dy[i] = d[perm[i]].y;
    for (int k = 0; k < 3; ++k) {
      w[i][k] = in[perm[i]].w[k];
      dw[i][k] = d[perm[i]].w[k];
    }
  }
  double a0 = w[0][0], da0 = dw[0][0], a1 = w[0][1], da1 = dw[0][1];
  w[0][1] = a0, dw[0][1] = da0, w[0][2] = a1, dw[0][2] = da1;
  w[1][0] = w[1][1], dw[1][0] = dw[1][1], w[1][1] = w[1][2],
  dw[1][1] = dw[1][2];
  double h[3], dh[3];
  for (int i = 0; i < 3; ++i) {
    h[i] = x[i] * w[i][i];
    dh[i] = dx[i] * w[i][i] + x[i] * dw[i][i];
  }
  double ds = dh[0] + dh[1] * h[2] + h[1] * dh[2];
  for (int i = 0; i < 4; ++i)
    ds += (dy[i] * w[i][0] + y[i] * dw[i][0]) * (i + 1);
  return ds;
}

/* pointers as data: a select between two active arrays, a linked list
 * built on the heap (shadow nodes linked like the primal ones), an array of
 * pointers, and a list passed in with a shadow list */
typedef struct node {
  double v;
  struct node *next;
} node;
static double pick(const double *a, const double *b) {
  const double *p = a[0] > b[0] ? a : b;
  return p[0] * p[1];
}
static double list_sum(const double *x, int n) {
  node *head = NULL;
  for (int i = 0; i < n; ++i) {
    node *e = (node *)malloc(sizeof *e);
    e->v = x[i] * x[i];
    e->next = head;
    head = e;
  }
  double s = 0;
  int k = 1;
  while (head) {
    node *nx = head->next;
    s += head->v * k++;
    free(head);
    head = nx;
  }
  return s;
}
static double ptr_array(const double *x, int n) {
  const double *ps[8];
  for (int i = 0; i < n; ++i)
    ps[i] = &x[n - 1 - i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += *ps[i] * *ps[i] * (i + 1);
  return s;
}
static double walk_list(const node *l) {
  double s = 0;
  for (; l; l = l->next)
    s += sin(l->v);
  return s;
}

/* line functions for finite differences: p(t) = p0 + t dp */
/* An atomic accumulation whose old value is used: d(old) is the shadow's
 * old value (an OpenMP-style reduction that also reads). */
static double atomic_acc(double *acc, double x) {
  double old = __atomic_fetch_add(acc, x * x, __ATOMIC_RELAXED);
  return old * x;
}

static double g_p0[16], g_dp[16];
static int g_n;
#define LINE(fn)                                                               \
  static double fn##_line(double t) {                                         \
    double p[16];                                                              \
    for (int i = 0; i < g_n; ++i)                                              \
      p[i] = g_p0[i] + t * g_dp[i];                                            \
    return fn(p, g_n);                                                         \
  }
LINE(walk)
LINE(stack_ops)
LINE(heap_ops)
static double triple_line(double t) {
  double p[9];
  for (int i = 0; i < 9; ++i)
    p[i] = g_p0[i] + t * g_dp[i];
  return triple(p);
}
static body g_b0[3], g_db[3];
static double energy_line(double t) {
  body b[3];
  for (int i = 0; i < 3; ++i) {
    b[i] = g_b0[i];
    b[i].pos.x += t * g_db[i].pos.x;
    b[i].pos.y += t * g_db[i].pos.y;
    b[i].pos.z += t * g_db[i].pos.z;
    b[i].mass += t * g_db[i].mass;
  }
  return energy(b, 3);
}
static double iterate_line(double t) {
  double y[2] = {g_p0[0] + t * g_dp[0], g_p0[1] + t * g_dp[1]};
  double b[2] = {g_p0[2] + t * g_dp[2], g_p0[3] + t * g_dp[3]};
  iterate(y, b, 3);
  return y[0] + 2 * y[1];
}

static rec g_r0[4], g_dr[4];
static double shuffle_line(double t) {
  rec r[4];
  for (int i = 0; i < 4; ++i) {
    r[i] = g_r0[i];
    r[i].x += t * g_dr[i].x;
    r[i].y += t * g_dr[i].y;
    for (int k = 0; k < 3; ++k)
      r[i].w[k] += t * g_dr[i].w[k];
  }
  return shuffle(r, 4);
}

static void set_line(const double *p, const double *dp, int n) {
  g_n = n;
  for (int i = 0; i < n; ++i) {
    g_p0[i] = p[i];
    g_dp[i] = dp[i];
  }
}

int main(void) {
  /* structs */
  {
    body b[3] = {{{0, 0, 0}, 1.0, 1}, {{1, 0.5, 0}, 2.0, 2},
                 {{0.2, 1.1, 0.7}, 0.5, 3}};
    body db[3];
    memset(db, 0, sizeof db);
    db[1].pos.x = 1; /* d/dx1 */
    double e = __enzyme_fwddiff((void *)energy, b, db, 3);
    /* closed form of d/dx1: sum over j != 1 of -m1 mj (x1-xj)/r^3 */
    double want = 0;
    for (int j = 0; j < 3; ++j) {
      if (j == 1)
        continue;
      double dx = b[1].pos.x - b[j].pos.x, dy = b[1].pos.y - b[j].pos.y,
             dz = b[1].pos.z - b[j].pos.z, r = sqrt(dx * dx + dy * dy + dz * dz);
      want -= b[1].mass * b[j].mass * dx / (r * r * r);
    }
    memcpy(g_b0, b, sizeof b);
    memcpy(g_db, db, sizeof db);
    CHECK_TANGENT(e, want, energy_line, 0.0);
    /* mixed direction: positions and a mass */
    db[0].pos.y = -0.5;
    db[2].pos.z = 0.3;
    db[2].mass = 1.0;
    db[0].tag = 77; /* int field of the shadow: ignored */
    memcpy(g_db, db, sizeof db);
    e = __enzyme_fwddiff((void *)energy, b, db, 3);
    CHECK_CLOSE(e, fd_central(energy_line, 0.0), FWD_TOL_FD);
  }
  /* structs by value */
  {
    ff p = {2, 3}, dp = {1, -1};
    vec3 v = {2, 3, 4}, dv = {0, 0, 1};
    CHECK_CLOSE(__enzyme_fwddiff((void *)byval_ff, p, dp), 1.0, FWD_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)byval_vec3, v, dv), 6.0,
                FWD_TOL_EXACT);
  }
  /* struct by value, cross product: d/dt det(a+t da, b, c) */
  {
    double v[9] = {1, 2, 0.5, -1, 0.3, 2, 0.7, 0.1, -0.4};
    double dv[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
    set_line(v, dv, 9);
    /* d/da_x (a . (b x c)) = (b x c)_x = b_y c_z - b_z c_y */
    CHECK_TANGENT(__enzyme_fwddiff((void *)triple, v, dv),
                  v[4] * v[8] - v[5] * v[7], triple_line, 0.0);
    for (int i = 0; i < 9; ++i)
      dv[i] = 0.1 * (i + 1) - 0.45;
    set_line(v, dv, 9);
    CHECK_CLOSE(__enzyme_fwddiff((void *)triple, v, dv),
                fd_central(triple_line, 0.0), FWD_TOL_FD);
  }
  /* pointer arithmetic */
  {
    double p[7] = {0.5, -1, 2, 0.25, 3, -0.5, 1}, dp[7];
    double want = 0;
    for (int i = 0; i < 7; ++i)
      dp[i] = 1.0 / (i + 1);
    for (int i = 1; i < 7; ++i)
      want += dp[i] * p[i - 1] + p[i] * dp[i - 1];
    set_line(p, dp, 7);
    CHECK_TANGENT(__enzyme_fwddiff((void *)walk, p, dp, 7), want, walk_line,
                  0.0);
  }
  /* stack arrays, memset/memcpy/memmove */
  {
    double in[5] = {0.5, -0.3, 1.2, 2.0, -1.1}, din[5] = {1, 2, -1, 0.5, 0.25};
    /* closed form: buf[1] = in[0] (left by memmove), buf[2..n+1] = in */
    double buf[16] = {0}, dbuf[16] = {0};
    buf[1] = in[0];
    dbuf[1] = din[0];
    for (int i = 0; i < 5; ++i) {
      buf[i + 2] = in[i];
      dbuf[i + 2] = din[i];
    }
    for (int i = 1; i < 7; ++i) {
      dbuf[i] = 2 * buf[i] * dbuf[i] + 0.5 * dbuf[i - 1];
      buf[i] = buf[i] * buf[i] + 0.5 * buf[i - 1];
    }
    double want = 0;
    for (int i = 0; i < 16; ++i)
      want += dbuf[i] * (i + 1);
    set_line(in, din, 5);
    CHECK_TANGENT(__enzyme_fwddiff((void *)stack_ops, in, din, 5), want,
                  stack_ops_line, 0.0);
    /* shadow input left untouched */
    CHECK_CLOSE(din[2], -1.0, 0);
  }
  /* heap */
  {
    double in[4] = {0.3, -0.8, 1.1, 0.6}, din[4] = {1, -1, 0.5, 2};
    double want = 0;
    for (int i = 0; i < 4; ++i) {
      double x = in[i], c = x * x + x * x * x;
      want += cos(c) * (2 * x + 3 * x * x) * din[i];
    }
    set_line(in, din, 4);
    CHECK_TANGENT(__enzyme_fwddiff((void *)heap_ops, in, din, 4), want,
                  heap_ops_line, 0.0);
  }
  /* pointers as data */
  {
    double a[2] = {2, 3}, da[2] = {1, -1}, b[2] = {1, 5}, db[2] = {0.5, 1};
    CHECK_CLOSE(__enzyme_fwddiff((void *)pick, a, da, b, db), 1.0, FWD_TOL_EXACT);
    a[0] = 0.5; /* b is picked */
    CHECK_CLOSE(__enzyme_fwddiff((void *)pick, a, da, b, db), 3.5, FWD_TOL_EXACT);
    double x[4] = {1, -2, 0.5, 4}, dx[4] = {1, 0.5, -1, 0.25}, want = 0;
    for (int i = 0; i < 4; ++i)
      want += 2 * x[i] * dx[i] * (4 - i); /* the list is reversed */
    set_line(x, dx, 4);
    CHECK_CLOSE(__enzyme_fwddiff((void *)list_sum, x, dx, 4), want,
                FWD_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)ptr_array, x, dx, 4), want,
                FWD_TOL_EXACT);
    node n3 = {0.3, NULL}, n2 = {-0.2, &n3}, n1 = {1.1, &n2};
    node d3 = {1, NULL}, d2 = {-2, &d3}, d1 = {0.5, &d2};
    CHECK_CLOSE(__enzyme_fwddiff((void *)walk_list, &n1, &d1),
                0.5 * cos(1.1) - 2 * cos(-0.2) + cos(0.3), FWD_TOL_EXACT);
  }
  /* struct copies, overlapping memmove, shrinking realloc */
  {
    rec in[4], din[4];
    for (int i = 0; i < 4; ++i) {
      rec a = {0.3 * i + 0.1, 1.0 - 0.2 * i, i, {i * 0.5, -0.3, 0.7 + i}};
      rec d = {cos(i), sin(i), 0, {1.0, 0.5 * i, -0.25}};
      in[i] = g_r0[i] = a;
      din[i] = g_dr[i] = d;
    }
    CHECK_TANGENT(__enzyme_fwddiff((void *)shuffle, in, din, 4),
                  shuffle_closed_form_d(in, din), shuffle_line, 0.0);
  }
  /* in-place iteration on a duplicated array; b duplicated too */
  {
    double y[2] = {0.4, -0.2}, dy[2] = {1, 0.5}, b[2] = {0.1, 0.3},
           db[2] = {-1, 2};
    double p[4] = {y[0], y[1], b[0], b[1]}, dp[4] = {dy[0], dy[1], db[0], db[1]};
    set_line(p, dp, 4);
    __enzyme_fwddiff_void((void *)iterate, y, dy, b, db, 3);
    double y0[2] = {0.4, -0.2};
    iterate(y0, b, 3);
    CHECK_CLOSE(y[0], y0[0], FWD_TOL_EXACT); /* primal updated in place */
    CHECK_CLOSE(y[1], y0[1], FWD_TOL_EXACT);
    CHECK_CLOSE(dy[0] + 2 * dy[1], fd_central(iterate_line, 0.0), FWD_TOL_FD);
    /* closed form by hand-propagating the tangent */
    double yy[2] = {0.4, -0.2}, ty[2] = {1, 0.5};
    for (int s = 0; s < 3; ++s) {
      double y0v = 0.8 * yy[0] - 0.6 * yy[1] + b[0],
             t0 = 0.8 * ty[0] - 0.6 * ty[1] + db[0];
      double y1v = 0.6 * yy[0] + 0.8 * yy[1] + b[1],
             t1 = 0.6 * ty[0] + 0.8 * ty[1] + db[1];
      ty[0] = 0.2 * y0v * t0 + t0;
      yy[0] = y0v * y0v * 0.1 + y0v;
      ty[1] = t1;
      yy[1] = y1v;
    }
    CHECK_CLOSE(dy[0], ty[0], FWD_TOL_EXACT);
    CHECK_CLOSE(dy[1], ty[1], FWD_TOL_EXACT);
    /* b with enzyme_const */
    double y2[2] = {0.4, -0.2}, dy2[2] = {0, 0};
    __enzyme_fwddiff_void((void *)iterate, y2, dy2, enzyme_const, b, 3);
    CHECK_CLOSE(y2[0], y0[0], FWD_TOL_EXACT);
    CHECK_CLOSE(dy2[0], 0.0, 0);
    CHECK_CLOSE(dy2[1], 0.0, 0);
    double y3[2] = {0.4, -0.2}, dy3[2] = {1, 0.5};
    __enzyme_fwddiff_void((void *)iterate, y3, dy3, enzyme_const, b, 3);
    double zb[2] = {0, 0};
    double y4[2] = {0.4, -0.2}, dy4[2] = {1, 0.5};
    __enzyme_fwddiff_void((void *)iterate, y4, dy4, b, zb, 3);
    CHECK_CLOSE(dy3[0], dy4[0], FWD_TOL_EXACT);
    CHECK_CLOSE(dy3[1], dy4[1], FWD_TOL_EXACT);
  }
  /* struct with an array member; x dual, polynomial duplicated or const */
  {
    poly p = {{1, -2, 0.5, 3}, 4}, dp = {{0, 0, 0, 0}, 0};
    double x = 0.7;
    CHECK_CLOSE(__enzyme_fwddiff((void *)eval_poly, &p, &dp, x, 1.0),
                -2 + 2 * 0.5 * x + 3 * 3 * x * x, FWD_TOL_EXACT);
    CHECK_CLOSE(__enzyme_fwddiff((void *)eval_poly, enzyme_const, &p, x, 1.0),
                -2 + 2 * 0.5 * x + 3 * 3 * x * x, FWD_TOL_EXACT);
    /* tangent of the coefficients: d/dc_k = x^k */
    dp.coef[2] = 1;
    CHECK_CLOSE(__enzyme_fwddiff((void *)eval_poly, &p, &dp, x, 0.0), x * x,
                FWD_TOL_EXACT);
  }
  /* atomic fadd: acc dual (tangent 0.5), x dual (tangent 1) */
  {
    double acc = 2.0, dacc = 0.5, x = 1.5;
    double t = __enzyme_fwddiff((void *)atomic_acc, &acc, &dacc, x, 1.0);
    CHECK_CLOSE(t, 0.5 * x + 2.0, FWD_TOL_EXACT); /* dold x + old dx */
    CHECK_CLOSE(acc, 2.0 + x * x, 0);
    CHECK_CLOSE(dacc, 0.5 + 2 * x, FWD_TOL_EXACT);
  }
  return check_finish();
}
