// Device code has no scratch shadow behind a null shadow pointer (a shadow
// struct the caller zeroes): a value with a derivative written through one
// and read back is a located error at the write (it went to a sink at -O0:
// the derivative was lost), in both modes. Written and never read back, and
// at -O2 (the optimizer forwards the write to the read), it compiles.
// RUN: %expect-exit 1 %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c %s -o /dev/null
// CHECK-NOT: write_only
// CHECK: null-shadow-write.c:[[@LINE+12]]:11: error: cannot differentiate 'write_read' in reverse mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK: null-shadow-write.c:[[@LINE+11]]:11: error: cannot differentiate 'write_read' in forward mode: a value with a derivative is written through the shadow of constant memory in device code
// CHECK-NOT: write_only
extern double __enzyme_fwddiff(void *, ...);
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_out;

struct S {
  double *p;
  double k;
};
static double write_read(struct S *s, double x) {
  s->p[0] = x * x;
  return s->p[0] * s->k;
}
static double write_only(struct S *s, double x) {
  s->p[1] = x * x;
  return x * s->k;
}
__attribute__((amdgpu_kernel)) void kern(double *buf, double *out) {
  struct S s = {buf, 1.5}, ds = {0};
  out[0] = __enzyme_autodiff((void *)write_read, enzyme_dup, &s, &ds,
                             enzyme_out, out[1]);
  struct S ts = {0};
  out[2] = __enzyme_fwddiff((void *)write_read, enzyme_dup, &s, &ts,
                            enzyme_dup, out[1], 1.0);
  out[3] = __enzyme_fwddiff((void *)write_only, enzyme_dup, &s, &ts,
                            enzyme_dup, out[1], 1.0);
}
