// A union of two floats and a long ({float f[2]; long l;}) inside a struct
// (not an array), copied member by member by a helper (`dst->p =
// src->p`): from -O1 the union's copy is one 8-byte integer load and
// store whose TBAA type is "omnipotent char", which says nothing of the
// bits. It is the located error at the copy; until 2026-12-07 it was taken
// for an integer move and the floats' adjoints were lost without a word
// (gradient 0 at -O1 and -O2). (-O3 passes the union's floats packed into
// one integer argument: a known bug, docs/status.md.)
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
typedef union {
  float f[2];
  long l;
} pair;
typedef struct {
  double w;
  pair p;
  int k;
} rec;
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

__attribute__((noinline)) static void copy(rec *dst, const rec *src) {
  dst->p = src->p;
  // CHECK: union-member-copy.c:[[#@LINE-1]]:{{[0-9]+}}: error: cannot differentiate 'copy' in reverse mode: a memory copy whose contents cannot be typed
  dst->w = src->w * 2;
}

double f(const double *x) {
  rec in, out;
  in.p.f[0] = (float)x[0];
  in.p.f[1] = (float)x[1];
  in.w = x[2];
  copy(&out, &in);
  return out.p.f[0] * out.p.f[1] * out.w + out.p.f[1];
}

void grad(const double *x, double *g) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, g);
}
