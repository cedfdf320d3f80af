// The size kernel of a launched kernel tells the runtime what the kernel
// does through the fields of its pointer parameters, the pointers it reads
// from their data at constant offsets (device/LaunchPointers.h), so that
// the launch's derivative can stop where a field's shadow is null and the
// kernel writes through it and reads it back, or through another pointer
// into the same data (issue 35; numerically: tests/gpu/gpu_launch_fields.cu
// on the grid emulation). After the slot's bytes: the parameters written
// through, fields included (c and out: 5); those written through
// themselves (out: 4), read through themselves (x: 2); the count of fields
// (4); each field as a node of the kernel's pointer graph, 1 << 63 (a
// node) | 1 << 62 (its parent a parameter) | parameter << 56 | read << 49 |
// written << 48 | offset, by offset: coef (read, by a helper function), a
// (written, at -O0 through a local variable, and read back), b (read), tmp
// (written), at -O0 and -O2. The fields are left
// to that check: the kernel, which writes through `a` and reads `a` back,
// has derivative kernels at -O0 (it had none: the compile-time check of
// null shadows took `a` for one).
// REQUIRES: cuda
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version 2>&1 | FileCheck %s

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

struct Ctx {
  const double *coef;
  double *a, *b;
  double *tmp;
};

__device__ double weight(const Ctx *c, int i) { return c->coef[i % 5]; }

__global__ void fields(const Ctx *c, const double *x, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double *a = c->a;
  a[i] = x[i] * x[i];
  c->tmp[i] = sin(x[i]);
  out[i] = (weight(c, i) + x[i]) * c->b[i] + c->a[i];
}

double loss(const Ctx *c, const double *x, double *out) {
  fields<<<1, 32>>>(c, x, out);
  return out[0];
}

void grad(const Ctx *c, Ctx *dc, const double *x, double *dx, double *out,
          double *dout) {
  __enzyme_autodiff((void *)loss, enzyme_dup, c, dc, enzyme_dup, x, dx,
                    enzyme_dup, out, dout);
}

// CHECK-NOT: warning:
// CHECK-LABEL: define {{.*}}void @__adcc_fwd__Z6fieldsPK3CtxPKdPd(
// CHECK-LABEL: define {{.*}}void @__adcc_size__Z6fieldsPK3CtxPKdPd(
// CHECK: store i64 5, ptr
// CHECK: store i64 4, ptr
// CHECK: store i64 2, ptr
// CHECK: store i64 4, ptr
// CHECK: store i64 -4611123068473966592, ptr
// CHECK: store i64 -4610841593497255928, ptr
// CHECK: store i64 -4611123068473966576, ptr
// CHECK: store i64 -4611404543450677224, ptr
// CHECK: ret void
// CHECK-LABEL: define {{.*}}void @__adcc_aug__Z6fieldsPK3CtxPKdPd(
// CHECK-NOT: warning:
