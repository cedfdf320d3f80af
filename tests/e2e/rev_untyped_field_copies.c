/* A double copied as bytes by a helper that is not inlined, through a
 * pointer that says nothing of them: a `void *` field (CoMD's copyAtom
 * with `void *r`: memcpy((double *)c->r + to, (double *)c->r + from, 8),
 * an i64 load and store from -O1), a `char *` cursor read from a field, a
 * union member, a row of a `void **` table, and the bits kept in a
 * uint64_t on the way. Until 2026-12-06 reverse mode lost the adjoint of
 * the copy at -O1 and above (the gradient through it was 0, silently;
 * forward mode was right): the callers' accesses through the same field
 * now type the helper's pointer (analysis/FieldPointees.cpp). Checked
 * against analytic values, central differences and forward mode. */
#include "check.h"

#include <stdint.h>
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

typedef struct {
  void *r; /* doubles */
  int n;
} VoidField;
typedef struct {
  int n;
  char *bytes; /* doubles */
} CharField;
typedef struct {
  union {
    void *v;
    double *d;
  } u;
  int n;
} UnionField;
typedef struct {
  void **rows; /* two rows of two doubles */
  int n;
} RowTable;

__attribute__((noinline)) void move_void(VoidField *c, int to, int from) {
  memcpy((double *)c->r + to, (double *)c->r + from, 8);
}

__attribute__((noinline)) void move_char(CharField *c, int to, int from) {
  char *p = c->bytes;
  memcpy(p + 8 * to, p + 8 * from, 8);
}

__attribute__((noinline)) void move_union(UnionField *c, int to, int from) {
  memcpy((char *)c->u.v + 8 * to, (char *)c->u.v + 8 * from, 8);
}

__attribute__((noinline)) void move_row(RowTable *c, int to, int from) {
  memcpy((double *)c->rows[to / 2] + to % 2,
         (double *)c->rows[from / 2] + from % 2, 8);
}

__attribute__((noinline)) void move_bits(VoidField *c, int to, int from) {
  uint64_t u;
  memcpy(&u, (double *)c->r + from, 8);
  memcpy((double *)c->r + to, &u, 8);
}

/* r[i] = x[i]^2 + sin(x[i]); r[0] = r[3]; r[1] = r[2]; sum (i+1) r[i]. */
#define BODY(set, get, move)                                                   \
  for (int i = 0; i < N; ++i)                                                  \
    set(i) = x[i] * x[i] + sin(x[i]);                                          \
  move(c, 0, 3);                                                               \
  move(c, 1, 2);                                                               \
  double s = 0;                                                                \
  for (int i = 0; i < N; ++i)                                                  \
    s += (i + 1) * get(i);                                                     \
  return s;

#define VOID_AT(i) ((double *)c->r)[i]
#define CHAR_AT(i) ((double *)c->bytes)[i]
#define UNION_AT(i) c->u.d[i]
#define ROW_AT(i) ((double *)c->rows[(i) / 2])[(i) % 2]

static double f_void(VoidField *c, const double *x) {
  BODY(VOID_AT, VOID_AT, move_void)
}
static double f_char(CharField *c, const double *x) {
  BODY(CHAR_AT, CHAR_AT, move_char)
}
static double f_union(UnionField *c, const double *x) {
  BODY(UNION_AT, UNION_AT, move_union)
}
static double f_row(RowTable *c, const double *x) {
  BODY(ROW_AT, ROW_AT, move_row)
}
static double f_bits(VoidField *c, const double *x) {
  BODY(VOID_AT, VOID_AT, move_bits)
}

/* The objects over r (the table's rows in t). */
#define MAKE_void(r, t) ((void)t, (VoidField){r, N})
#define MAKE_char(r, t) ((void)t, (CharField){N, (char *)(r)})
#define MAKE_union(r, t) ((void)t, (UnionField){{.d = r}, N})
#define MAKE_row(r, t) (t[0] = r, t[1] = r + 2, (RowTable){t, N})
#define MAKE_bits(r, t) ((void)t, (VoidField){r, N})

#define VALUE(T, name)                                                         \
  static double value_##name(const double *x) {                               \
    double r[N];                                                               \
    void *t[2];                                                                \
    T o = MAKE_##name(r, t);                                                   \
    return f_##name(&o, x);                                                    \
  }
VALUE(VoidField, void)
VALUE(CharField, char)
VALUE(UnionField, union)
VALUE(RowTable, row)
VALUE(VoidField, bits)

/* Analytic values (x[2] and x[3] count 2+3 and 1+4 times), central
 * differences, and forward mode along a direction against the gradient's
 * dot product. */
#define CHECK_CASE(T, name)                                                    \
  do {                                                                         \
    double r[N], dr[N] = {0}, g[N] = {0}, tr[N] = {0};                         \
    void *t[2], *dt[2], *tt[2];                                                \
    T o = MAKE_##name(r, t), d = MAKE_##name(dr, dt),                          \
      to = MAKE_##name(tr, tt);                                                \
    __enzyme_autodiff((void *)f_##name, enzyme_dup, &o, &d, enzyme_dup, x, g); \
    double dot = 0;                                                            \
    for (int i = 0; i < N; ++i) {                                              \
      double h = 1e-6, xp[N], xm[N];                                           \
      memcpy(xp, x, sizeof xp);                                                \
      memcpy(xm, x, sizeof xm);                                                \
      xp[i] += h;                                                              \
      xm[i] -= h;                                                              \
      CHECK_CLOSE(g[i], (i < 2 ? 0 : 5) * (2 * x[i] + cos(x[i])), 1e-12);      \
      CHECK_CLOSE(g[i], (value_##name(xp) - value_##name(xm)) / (2 * h),       \
                  1e-6);                                                       \
      dot += g[i] * tx[i];                                                     \
    }                                                                          \
    CHECK_CLOSE(__enzyme_fwddiff((void *)f_##name, enzyme_dup, &o, &to,        \
                                 enzyme_dup, x, tx),                           \
                dot, 1e-12);                                                   \
  } while (0)

int main(void) {
  const double x[N] = {0.3, -1.1, 0.7, 1.9}, tx[N] = {1, -2, 0.5, 3};
  CHECK_CASE(VoidField, void);
  CHECK_CASE(CharField, char);
  CHECK_CASE(UnionField, union);
  CHECK_CASE(RowTable, row);
  CHECK_CASE(VoidField, bits);
  return check_finish();
}
