// A struct holding a union {float f[2]; long l;} copied by a helper, and
// the caller reading both the floats and the long: from -O2 one i64 load
// gives the long and, by its bits, the two floats. Neither mode follows a
// derivative through it: an error at every level in both modes, never the
// gradient 0 given until 2026-12-07 (forward -O0/-O1: the long's bits
// changed as an integer; reverse and forward from -O2: floats read out of
// an integer's bits). Without the long (e2e rev_union_member_copies.c) the
// floats' derivatives are right.
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD-O0
// RUN: %expect-exit 1 %adcc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD-O0
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REV
// RUN: %expect-exit 1 %adcc -O3 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REV
// RUN: %expect-exit 1 %adcc -O2 -DFORWARD -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
// RUN: %expect-exit 1 %adcc -O3 -DFORWARD -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
typedef union {
  float f[2];
  long l;
} pair;
typedef struct {
  pair p;
  double w;
} rec;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

long tag;
__attribute__((noinline)) static void assign(rec *dst, const rec *src) {
  dst->p = src->p;
  dst->w = 2 * src->w;
}

double f(const double *x) {
  rec a, b;
  a.p.f[0] = (float)x[0];
  a.p.f[1] = (float)x[1];
  a.w = x[2];
  assign(&b, &a);
  tag += b.p.l;
  // FWD-O0: union-float-bits-reads.c:[[#@LINE-1]]:{{[0-9]+}}: error: cannot differentiate 'f' in forward mode: an integer holds the bits of a floating-point value
  // REV: union-float-bits-reads.c:[[#@LINE-2]]:{{[0-9]+}}: error: cannot differentiate 'f' in reverse mode: floating-point values are read out of the bits of an integer
  // FWD: union-float-bits-reads.c:[[#@LINE-3]]:{{[0-9]+}}: error: cannot differentiate 'f' in forward mode: floating-point values are read out of the bits of an integer
  return b.p.f[0] * b.p.f[1] * b.w + b.p.f[1];
}

void g(const double *x, double *d, double *t) {
#ifndef FORWARD
  __enzyme_autodiff((void *)f, enzyme_dup, x, d);
#endif
  __enzyme_fwddiff((void *)f, enzyme_dup, x, t);
}
