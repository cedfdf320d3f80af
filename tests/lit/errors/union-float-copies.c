// A union of two floats and a long ({float f[2]; long l;}) in an array of
// structs copied whole by a helper that reads nothing: the callers read
// the union both as floats and as a long, so which of its bytes are
// numbers with derivatives is not known, and the copy stays the located
// error at every level. Where they read it as floats only, it is
// differentiated (e2e rev_union_float_copies.c).
// RUN: %expect-exit 1 %adcc -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O1 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O2 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %expect-exit 1 %adcc -O3 -c %s -o /dev/null 2>&1 | FileCheck %s
typedef union {
  float f[2];
  long l;
} pair;
typedef struct {
  pair p;
  double w;
} rec;
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

__attribute__((noinline)) static void copy(rec *dst, const rec *src, int n) {
  for (int i = 0; i < n; ++i)
    dst[i] = src[i];
  // CHECK: union-float-copies.c:[[#@LINE-1]]:{{[0-9]+}}: error: cannot differentiate 'copy' in reverse mode: a memory copy whose contents cannot be typed
}

long tag;
double f(rec *in, int n) {
  rec out[4];
  copy(out, in, n);
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += out[i].p.f[0] * out[i].p.f[1] + out[i].w;
    tag += out[i].p.l;
  }
  return s;
}

void g(rec *in, rec *d) {
  __enzyme_autodiff((void *)f, enzyme_dup, in, d, enzyme_const, 2);
}
