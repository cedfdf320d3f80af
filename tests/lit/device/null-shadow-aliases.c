// A value with a derivative written through a null shadow pointer (a
// shadow struct the caller zeroes) and read back through another pointer
// to the same data: two fields the caller gave the same pointer (`S s =
// {buf, buf}`: written through s->p, read through s->q), a pointer a call
// returns, two arguments given the same pointer, one argument written and
// read in a function that is not inlined. In device code, with no scratch
// shadow behind the null shadow, each lost the derivative of the value
// written without a word (0 instead of 2 x k on the grid emulation; the
// check compared only the slot the pointer was read from): at -O0 all of
// them, at -O2 those the optimizer does not forward (two fields, two
// arguments, a returned pointer written and another field read). Each is
// now a located error at the write, in both modes; a read through a
// pointer into other data (a global table, the struct's own number s->k)
// is none.
// From -O1 the reads the optimizer forwards compile and are right: ctest
// gpu.emulated_null_aliases-O1/-O2.
// RUN: %expect-exit 1 %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %expect-exit 1 %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK
// CHECK-NOT: other_data
// CHECK-DAG: null-shadow-aliases.c:[[@LINE+20]]:11: error: cannot differentiate 'two_fields' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-DAG: null-shadow-aliases.c:[[@LINE+19]]:11: error: cannot differentiate 'two_fields' in forward mode: a value with a derivative is written through the shadow of constant memory in device code
// O0-DAG: null-shadow-aliases.c:[[@LINE+24]]:11: error: cannot differentiate 'returned_read' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// O0-DAG: null-shadow-aliases.c:[[@LINE+23]]:11: error: cannot differentiate 'returned_read' in forward mode: a value with a derivative is written through the shadow of constant memory in device code
// O0-DAG: null-shadow-aliases.c:[[@LINE+26]]:14: error: cannot differentiate 'returned_write' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// O0-DAG: null-shadow-aliases.c:[[@LINE+25]]:14: error: cannot differentiate 'returned_write' in forward mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-DAG: null-shadow-aliases.c:[[@LINE+28]]:14: error: cannot differentiate 'returned_write_other' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-DAG: null-shadow-aliases.c:[[@LINE+27]]:14: error: cannot differentiate 'returned_write_other' in forward mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-DAG: null-shadow-aliases.c:[[@LINE+32]]:8: error: cannot differentiate 'two_args' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-DAG: null-shadow-aliases.c:[[@LINE+31]]:8: error: cannot differentiate 'two_args' in forward mode: a value with a derivative is written through the shadow of constant memory in device code
// O0-DAG: null-shadow-aliases.c:[[@LINE+38]]:8: error: cannot differentiate 'same_arg_f' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// O0-DAG: null-shadow-aliases.c:[[@LINE+37]]:8: error: cannot differentiate 'same_arg_f' in forward mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-NOT: other_data
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_out;

struct S { double *p, *q; double k; };

static double two_fields(struct S *s, double x) {
  s->p[0] = x * x;
  return s->q[0] * s->k;
}

static double *getp(struct S *s) { return s->p; }
static double returned_read(struct S *s, double x) {
  s->p[0] = x * x;
  return getp(s)[0] * s->k;
}
static double returned_write(struct S *s, double x) {
  getp(s)[0] = x * x;
  return s->p[0] * s->k;
}
static double returned_write_other(struct S *s, double x) {
  getp(s)[0] = x * x;
  return s->q[0] * s->k;
}

static __attribute__((noinline)) double two_args(double *p, double *q,
                                                 double x) {
  p[0] = x * x;
  return q[0];
}
static double args(struct S *s, double x) {
  return two_args(s->p, s->q, x) * s->k;
}

static __attribute__((noinline)) double same_arg_f(double *p, double x) {
  p[0] = x * x;
  return p[0];
}
static double same_arg(struct S *s, double x) {
  return same_arg_f(s->p, x) * s->k;
}

static const double table[2] = {0.5, 2.0};
static double other_data(struct S *s, double x) {
  s->p[0] = x * x;
  return table[1] * x * s->k;
}

#define BOTH(f, i)                                                             \
  out[i] = __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_out,       \
                             out[20]);                                         \
  out[10 + i] = __enzyme_fwddiff((void *)f, enzyme_dup, &s, &ds, out[20], 1.0)

__attribute__((amdgpu_kernel)) void kern(double *buf, double *out) {
  struct S s = {buf, buf, 1.5}, ds = {0};
  BOTH(two_fields, 0);
  BOTH(returned_read, 1);
  BOTH(returned_write, 2);
  BOTH(returned_write_other, 3);
  BOTH(args, 4);
  BOTH(same_arg, 5);
  BOTH(other_data, 6);
}
