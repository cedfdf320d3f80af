// A pointer with a null shadow copied into another struct (`t->p = s->p`)
// and written through the copy, then read back through the original: in
// device code, with no scratch shadow behind the null shadow, the
// derivative of the value written was lost at -O0 without a word (the
// check compared only the slot written through); it is a located error at
// the write, as for a read back through the same slot
// (null-shadow-write.c). So is a local pointer variable holding the
// field's pointer (`double *q = s->p; q[0] = ...`).
// RUN: %expect-exit 1 %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c %s -o /dev/null
// CHECK: null-shadow-copied.c:[[@LINE+10]]:11: error: cannot differentiate 'copied' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK: null-shadow-copied.c:[[@LINE+15]]:8: error: cannot differentiate 'local' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_out;

struct S { double *p; double k; };
struct T { double *p; };

static double copied(struct S *s, struct T *t, double x) {
  t->p = s->p;
  t->p[0] = x * x;
  return s->p[0] * s->k;
}

static double local(struct S *s, double x) {
  double *q = s->p;
  q[0] = x * x;
  return s->p[0] * s->k;
}

__attribute__((amdgpu_kernel)) void kern(double *buf, double *out) {
  struct S s = {buf, 1.5}, ds = {0};
  struct T t, dt;
  out[0] = __enzyme_autodiff((void *)copied, enzyme_dup, &s, &ds, enzyme_dup,
                             &t, &dt, enzyme_out, out[1]);
  out[2] = __enzyme_autodiff((void *)local, enzyme_dup, &s, &ds, enzyme_out,
                             out[1]);
}
