// Without TBAA (-fno-strict-aliasing) every integer load and store is
// untyped. A double (or a float) copied by a helper that is not inlined,
// through a pointer read from a field and indexed by bytes (a `char *`
// cursor, `(char *)c->u.v + 8 * to`, a copy at offset 0), where the caller
// writes the array through another field that points to the same memory
// (`v`): the copy (an integer load and store from -O1, a memcpy at -O0)
// says nothing of the bytes, nor does anything done through its field.
// Until 2026-12-06 reverse mode lost the copied adjoint at -O1..-O3
// without a word (gradient 2 8 18 32 instead of 0 0 30 40); it is now
// reported at the copy, at every level. Siblings: a float, a memmove, a
// copy at offset 0, 16 bytes by __builtin_memcpy, the pointers set
// by a function that is not inlined. Integers copied through the field,
// written through it by the caller, are still differentiated from -O1
// (-DINTEGERS compiles).
// RUN: %expect-exit 1 %adcc -O0 -fno-strict-aliasing -c -DCASE=0 %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,COPY
// RUN: %expect-exit 1 %adcc -O1 -fno-strict-aliasing -c -DCASE=0 %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %expect-exit 1 %adcc -O2 -fno-strict-aliasing -c -DCASE=0 %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %expect-exit 1 %adcc -O3 -fno-strict-aliasing -c -DCASE=0 %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %expect-exit 1 %adcc -O2 -fno-strict-aliasing -c -DCASE=1 %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %expect-exit 1 %adcc -O2 -fno-strict-aliasing -c -DCASE=2 %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %expect-exit 1 %adcc -O2 -fno-strict-aliasing -c -DCASE=3 %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %expect-exit 1 %adcc -O2 -fno-strict-aliasing -c -DCASE=4 %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,COPY
// RUN: %expect-exit 1 %adcc -O2 -fno-strict-aliasing -c -DCASE=0 -DT=float %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %expect-exit 1 %adcc -O1 -fno-strict-aliasing -c -DCASE=3 -DT=float %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %expect-exit 1 %adcc -O2 -fno-strict-aliasing -c -DCASE=1 -DINIT %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %expect-exit 1 %adcc -O2 -c -DCASE=1 %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BITS
// RUN: %adcc -O2 -fno-strict-aliasing -c -DINTEGERS %s -o /dev/null
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);

#ifndef T
#define T double
#endif
#ifdef INTEGERS
#undef T
#define T int
#endif

struct cells {
  int n;
  union {
    void *v;
    char *b;
  } u;
  T *v; // the same array as u
};

// CHECK: untyped-bits-bytes-nsa.c:{{[0-9]+}}:3: error: cannot differentiate 'move' in reverse mode: a memory copy whose contents cannot be typed
// COPY-SAME: ; copy the values one by one
// BITS-SAME: (8 or 4 bytes moved as an integer
// CHECK-NOT: error:
__attribute__((noinline)) void move(struct cells *c, int to, int from) {
#if CASE == 0 || defined(INTEGERS)
  char *p = c->u.b;
  memcpy(p + sizeof(T) * to, p + sizeof(T) * from, sizeof(T));
#elif CASE == 1
  memcpy((char *)c->u.v + sizeof(T) * to, (char *)c->u.v + sizeof(T) * from,
         sizeof(T));
#elif CASE == 2
  memmove((char *)c->u.v + sizeof(T) * to, (char *)c->u.v + sizeof(T) * from,
          sizeof(T));
#elif CASE == 3
  memcpy(c->u.v, (char *)c->u.v + 3 * sizeof(T), sizeof(T));
#elif CASE == 4
  __builtin_memcpy(c->u.v, (char *)c->u.v + 2 * sizeof(T), 2 * sizeof(T));
#endif
}

#ifdef INTEGERS
// The caller writes and reads the integers through the copy's field.
static double f(struct cells *c, const double *x) {
  for (int i = 0; i < 4; ++i)
    ((int *)c->u.v)[i] = i;
  move(c, 0, 3);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += ((int *)c->u.v)[i] * x[i] * x[i];
  return s;
}
#else
static double f(struct cells *c, const double *x) {
  for (int i = 0; i < 4; ++i)
    c->v[i] = x[i] * x[i];
  move(c, 0, 3);
  move(c, 1, 2);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += (i + 1) * c->v[i];
  return s;
}
#endif

#ifdef INIT
__attribute__((noinline)) void init(struct cells *c, T *r) {
  c->n = 4;
  c->u.v = r;
  c->v = r;
}

double gradient(const double *x, double *g) {
  T r[4], dr[4] = {0};
  struct cells c, dc;
  init(&c, r);
  init(&dc, dr);
  __enzyme_autodiff((void *)f, enzyme_dup, &c, &dc, enzyme_dup, x, g);
  return r[0];
}
#else
void gradient(struct cells *c, struct cells *dc, const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, c, dc, enzyme_dup, x, g);
}
#endif
