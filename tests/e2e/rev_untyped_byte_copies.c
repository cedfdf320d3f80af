/* Values copied as bytes by helpers that are not inlined, through a pointer
 * read from a union member and indexed by bytes, built without TBAA
 * (registered with -fno-strict-aliasing): a `char *` cursor, `(char *)
 * c->u.v + size * to` by memcpy and by memmove, a copy at offset 0, two
 * values at once by __builtin_memcpy, doubles and floats, the pointer set
 * by a function that is not inlined. The caller writes and reads the
 * values through the same member, which types the helpers' copies
 * (analysis/FieldPointees.cpp); the same copies where the caller writes
 * through another pointer to the memory are the located error (lit
 * errors/untyped-bits-bytes-nsa.c; until 2026-12-06 their adjoints were
 * lost at -O1..-O3). Checked against analytic values, central differences
 * and forward mode. */
#include "check.h"

#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

enum { N = 4 };

#define CELLS(T)                                                               \
  typedef struct {                                                             \
    int n;                                                                     \
    union {                                                                    \
      void *v;                                                                 \
      char *b;                                                                 \
    } u;                                                                       \
  } Cells_##T;                                                                 \
  __attribute__((noinline)) void init_##T(Cells_##T *c, T *r) {                \
    c->n = N;                                                                  \
    c->u.v = r;                                                                \
  }                                                                            \
  __attribute__((noinline)) void cursor_##T(Cells_##T *c, int to, int from) {  \
    char *p = c->u.b;                                                          \
    memcpy(p + sizeof(T) * to, p + sizeof(T) * from, sizeof(T));               \
  }                                                                            \
  __attribute__((noinline)) void bytes_##T(Cells_##T *c, int to, int from) {   \
    memcpy((char *)c->u.v + sizeof(T) * to, (char *)c->u.v + sizeof(T) * from, \
           sizeof(T));                                                         \
  }                                                                            \
  __attribute__((noinline)) void moved_##T(Cells_##T *c, int to, int from) {   \
    memmove((char *)c->u.v + sizeof(T) * to,                                   \
            (char *)c->u.v + sizeof(T) * from, sizeof(T));                     \
  }                                                                            \
  /* r[0] = r[3], r[1] = r[2] (to and from unused). */                         \
  __attribute__((noinline)) void fixed_##T(Cells_##T *c, int to, int from) {   \
    if (to == 0)                                                               \
      memcpy(c->u.v, (char *)c->u.v + 3 * sizeof(T), sizeof(T));               \
    else                                                                       \
      memcpy((char *)c->u.v + sizeof(T), (char *)c->u.v + 2 * sizeof(T),       \
             sizeof(T));                                                       \
    (void)from;                                                                \
  }                                                                            \
  /* r[0..1] = r[2..3] at the first call. */                                   \
  __attribute__((noinline)) void pair_##T(Cells_##T *c, int to, int from) {    \
    if (to == 0)                                                               \
      __builtin_memcpy(c->u.v, (char *)c->u.v + 2 * sizeof(T), 2 * sizeof(T)); \
    (void)from;                                                                \
  }

CELLS(double)
CELLS(float)

/* r[i] = x[i]^2 + sin(x[i]); move(0, 3); move(1, 2); sum (i+1) r[i]. */
#define F(T, move)                                                             \
  static double f_##move##_##T(Cells_##T *c, const double *x) {                \
    for (int i = 0; i < N; ++i)                                                \
      ((T *)c->u.v)[i] = (T)(x[i] * x[i] + sin(x[i]));                         \
    move##_##T(c, 0, 3);                                                       \
    move##_##T(c, 1, 2);                                                       \
    double s = 0;                                                              \
    for (int i = 0; i < N; ++i)                                                \
      s += (i + 1) * ((T *)c->u.v)[i];                                         \
    return s;                                                                  \
  }                                                                            \
  static double value_##move##_##T(const double *x) {                          \
    T r[N];                                                                    \
    Cells_##T o;                                                               \
    init_##T(&o, r);                                                           \
    return f_##move##_##T(&o, x);                                              \
  }

F(double, cursor)
F(double, bytes)
F(double, moved)
F(double, fixed)
F(double, pair)
F(float, cursor)
F(float, bytes)
F(float, fixed)

/* The weights of x[i]'s term: (i+1) r[i] after the moves. */
static const double MoveWeights[N] = {0, 0, 2 + 3, 1 + 4};
static const double PairWeights[N] = {0, 0, 1 + 3, 2 + 4};

#define CHECK_CASE(T, move, weights, tol, h, fdtol)                            \
  do {                                                                         \
    T r[N], dr[N] = {0}, tr[N] = {0};                                          \
    double g[N] = {0};                                                         \
    Cells_##T o, d, to;                                                        \
    init_##T(&o, r);                                                           \
    init_##T(&d, dr);                                                          \
    init_##T(&to, tr);                                                         \
    __enzyme_autodiff((void *)f_##move##_##T, enzyme_dup, &o, &d, enzyme_dup,  \
                      x, g);                                                   \
    double dot = 0;                                                            \
    for (int i = 0; i < N; ++i) {                                              \
      double xp[N], xm[N];                                                     \
      memcpy(xp, x, sizeof xp);                                                \
      memcpy(xm, x, sizeof xm);                                                \
      xp[i] += h;                                                              \
      xm[i] -= h;                                                              \
      CHECK_CLOSE(g[i], weights[i] * (2 * x[i] + cos(x[i])), tol);             \
      CHECK_CLOSE(g[i],                                                        \
                  (value_##move##_##T(xp) - value_##move##_##T(xm)) / (2 * h), \
                  fdtol);                                                      \
      dot += g[i] * tx[i];                                                     \
    }                                                                          \
    CHECK_CLOSE(__enzyme_fwddiff((void *)f_##move##_##T, enzyme_dup, &o, &to,  \
                                 enzyme_dup, x, tx),                           \
                dot, tol);                                                     \
  } while (0)

int main(void) {
  const double x[N] = {0.3, -1.1, 0.7, 1.9}, tx[N] = {1, -2, 0.5, 3};
  CHECK_CASE(double, cursor, MoveWeights, 1e-12, 1e-6, 1e-8);
  CHECK_CASE(double, bytes, MoveWeights, 1e-12, 1e-6, 1e-8);
  CHECK_CASE(double, moved, MoveWeights, 1e-12, 1e-6, 1e-8);
  CHECK_CASE(double, fixed, MoveWeights, 1e-12, 1e-6, 1e-8);
  CHECK_CASE(double, pair, PairWeights, 1e-12, 1e-6, 1e-8);
  CHECK_CASE(float, cursor, MoveWeights, 1e-5, 1e-2, 1e-3);
  CHECK_CASE(float, bytes, MoveWeights, 1e-5, 1e-2, 1e-3);
  CHECK_CASE(float, fixed, MoveWeights, 1e-5, 1e-2, 1e-3);
  return check_finish();
}
