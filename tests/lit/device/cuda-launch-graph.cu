// The size kernel of a launched kernel describes the kernel's pointer
// graph (device/LaunchPointers.h): the pointers it reads from its
// arguments' data at constant offsets, at offsets known only at run time,
// and below them, so that the launch's derivative can walk the arguments'
// data and stop where a null shadow would lose a derivative (issue 35;
// numerically: tests/gpu/gpu_launch_graph.cu on the grid emulation).
// After the slot's bytes: the parameters written through (rows, c, out:
// 19), written through themselves (out: 16), read through themselves (x:
// 8), the count of nodes (7), then each node: 1 << 63 | of a parameter
// << 62 | parent << 56 | read << 49 | written << 48 | step << 40 | offset:
// rows[j] (parameter 0, step 8, read and written); c->tables (parameter
// 1, byte 0); tables[j] (node 1, step 8, read); c->inner (parameter 1,
// byte 8); inner->a (node 3, written); inner->b (node 3, byte 8, read);
// s[j].p (parameter 2, step 16, byte 8, read). The same at -O0 and -O2;
// ptxas assembles the PTX.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S %s -o %t/k.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/k.ptx -o %t/k.cubin

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

struct Inner {
  double *a, *b;
};
struct Outer {
  const double *const *tables;
  Inner *inner;
};
struct Pair {
  double v;
  double *p;
};

__global__ void graph(double *const *rows, const Outer *c, const Pair *s,
                      const double *x, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i % 2;
  rows[j][i] = x[i] * x[i];
  c->inner->a[i] = x[i] * x[i] * x[i];
  out[i] = 2 * (rows[1 - j][i] + c->tables[j][i % 5]) + 3 * c->inner->b[i] +
           s[j].p[i];
}

double loss(double *const *rows, const Outer *c, const Pair *s,
            const double *x, double *out) {
  graph<<<1, 32>>>(rows, c, s, x, out);
  return out[0];
}

void grad(double *const *rows, double **drows, const Outer *c, Outer *dc,
          const Pair *s, Pair *ds, const double *x, double *dx, double *out,
          double *dout) {
  __enzyme_autodiff((void *)loss, enzyme_dup, rows, drows, enzyme_dup, c, dc,
                    enzyme_dup, s, ds, enzyme_dup, x, dx, enzyme_dup, out,
                    dout);
}

// CHECK-NOT: warning:
// CHECK-LABEL: define {{.*}}void @__adcc_size__Z5graphPKPdPK5OuterPK4PairPKdS_(
// CHECK: store i64 19, ptr
// CHECK: store i64 16, ptr
// CHECK: store i64 8, ptr
// CHECK: store i64 7, ptr
// CHECK: store i64 -4610832797404233728, ptr
// CHECK: store i64 -4539628424389459968, ptr
// CHECK: store i64 -9150742696770404352, ptr
// CHECK: store i64 -4539628424389459960, ptr
// CHECK: store i64 -9006917779764281344, ptr
// CHECK: store i64 -9006636304787570680, ptr
// CHECK: store i64 -4466990288212066296, ptr
// CHECK: ret void
