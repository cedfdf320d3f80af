// A number stored over shadow bytes that may hold a pointer's shadow is
// checked against the thread's marks (adcc.shadow.clear.pointers,
// PointerShadowMarks.h), which keeps a loop of such stores scalar. A heap
// block the function allocates, whose address goes only to loads, stores
// of numbers and its free, is never checked (analysis/PrivateBlocks.h):
// its shadow is the derivative's own zeroed block. A block that also
// holds a pointer, or whose address goes to another call, still is.
// RUN: %adcc -O2 -S -emit-llvm %s -o - | FileCheck %s
void *malloc(unsigned long);
void free(void *);
void sink(double *);
void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static double numbers_only(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  for (int i = 1; i < n; i++)
    t[i] += t[i - 1] * x[i];
  double r = t[n - 1];
  free(t);
  return r;
}

// CHECK-LABEL: define {{.*}}void @grad_numbers_only(
// CHECK-NOT: adcc_shadow_clear_pointers
// CHECK: ret void
void grad_numbers_only(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)numbers_only, enzyme_dup, x, dx, enzyme_const, n);
}

static double escapes(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    t[i] = x[i] * x[i];
  sink(t);
  double r = t[n - 1];
  free(t);
  return r;
}

// CHECK-LABEL: define {{.*}}void @grad_escapes(
// CHECK: adcc_shadow_clear_pointers
// CHECK: ret void
void grad_escapes(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)escapes, enzyme_dup, x, dx, enzyme_const, n);
}
