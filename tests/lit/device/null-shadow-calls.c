// Writes through a null shadow pointer (a shadow struct the caller zeroes)
// that the check did not follow into calls or through long chains of
// local copies: in device code, with no scratch shadow behind the null
// shadow, each lost the derivative of the value written at -O0 without a
// word (the write went to a sink, the read gave 0; the grid emulation gave
// 0 for 2.1). Each is now a located error, in both modes: a pointer handed
// to a function that stores it where it is written through (keep), more
// local copies than the check follows (deep), the struct handed to a
// function that reads it back (get), a function that writes through the
// struct or the pointer it is given, read back by its caller (set, setp).
// From -O1 the optimizer forwards the write to the read: they compile (and
// give 2.1 on the emulation: tests/gpu/gpu_null_shadows.cu). Written and
// never read back (write_only) compiles at every level.
// RUN: %expect-exit 1 %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O1 -c %s -o /dev/null
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c %s -o /dev/null
// CHECK-NOT: write_only
// CHECK-DAG: null-shadow-calls.c:[[@LINE+21]]:11: error: cannot differentiate 'stored' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-DAG: null-shadow-calls.c:[[@LINE+20]]:11: error: cannot differentiate 'stored' in forward mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-DAG: null-shadow-calls.c:[[@LINE+26]]:8: error: cannot differentiate 'deep' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-DAG: null-shadow-calls.c:[[@LINE+25]]:8: error: cannot differentiate 'deep' in forward mode: a value
// CHECK-DAG: null-shadow-calls.c:[[@LINE+30]]:11: error: cannot differentiate 'read_by_callee' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-DAG: null-shadow-calls.c:[[@LINE+29]]:11: error: cannot differentiate 'read_by_callee' in forward mode: a value
// CHECK-DAG: null-shadow-calls.c:[[@LINE+34]]:3: error: cannot differentiate 'written_by_callee' in reverse mode: the function called here (or one it calls) may write a value with a derivative through the shadow of constant memory that this function reads back, in device code
// CHECK-DAG: null-shadow-calls.c:[[@LINE+33]]:3: error: cannot differentiate 'written_by_callee' in forward mode: the function called here
// CHECK-DAG: null-shadow-calls.c:[[@LINE+38]]:3: error: cannot differentiate 'written_through_argument' in reverse mode: the function called here
// CHECK-DAG: null-shadow-calls.c:[[@LINE+37]]:3: error: cannot differentiate 'written_through_argument' in forward mode: the function called here
// CHECK-NOT: write_only
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_out;

struct S { double *p; double k; };
struct T { double *p; };

static void keep(struct T *t, double *p) { t->p = p; }
static double stored(struct S *s, struct T *t, double x) {
  keep(t, s->p);
  t->p[0] = x * x;
  return s->p[0] * s->k;
}

static double deep(struct S *s, struct T *t, double x) {
  double *q = s->p, *r = q, *u = r, *v = u, *w = v, *y = w, *z = y, *a = z,
         *b = a, *c = b;
  c[0] = x * x;
  return s->p[0] * s->k;
}

static double get(struct S *s) { return s->p[0]; }
static double read_by_callee(struct S *s, struct T *t, double x) {
  s->p[0] = x * x;
  return get(s) * s->k;
}

static void set(struct S *s, double x) { s->p[0] = x * x; }
static double written_by_callee(struct S *s, struct T *t, double x) {
  set(s, x);
  return s->p[0] * s->k;
}

static void setp(double *p, double x) { p[0] = x * x; }
static double written_through_argument(struct S *s, struct T *t, double x) {
  setp(s->p, x);
  return s->p[0] * s->k;
}

static double write_only(struct S *s, struct T *t, double x) {
  set(s, x);
  s->p[1] = x * x;
  return x * s->k;
}

#define BOTH(f, i)                                                             \
  out[i] = __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_dup, &t,   \
                             &dt, enzyme_out, out[7]);                         \
  out[8 + i] = __enzyme_fwddiff((void *)f, enzyme_dup, &s, &ds, enzyme_dup,    \
                                &t, &dt, out[7], 1.0)

__attribute__((amdgpu_kernel)) void kern(double *buf, double *out) {
  struct S s = {buf, 1.5}, ds = {0};
  struct T t, dt;
  BOTH(stored, 0);
  BOTH(deep, 1);
  BOTH(read_by_callee, 2);
  BOTH(written_by_callee, 3);
  BOTH(written_through_argument, 4);
  BOTH(write_only, 5);
}
