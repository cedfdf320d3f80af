// The size kernel of a launched kernel tells the runtime which pointer
// parameters the kernel may write through (bit i: parameter i), so that a
// pointer argument without a shadow is constant where the kernel only
// reads it: here c (read, also by a helper function), y (written), pp
// (written through a pointer loaded from its data), m (read, an index),
// q (passed to a function without a body): bits 1, 2 and 4, at -O0
// (through stack slots) and -O2. (Numerically:
// tests/gpu/gpu_const_pointers.cu on the grid emulation.)
// REQUIRES: cuda
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
__device__ void opaque(const double *);

__device__ double at(const double *c, int k) { return c[k]; }

__global__ void k(const double *c, double *y, double **pp, const int *m,
                  const double *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = at(c, m[i]) * y[i];
  pp[0][i] = y[i];
  if (i == 0)
    opaque(q);
}

double loss(const double *c, double *y, double **pp, const int *m,
            const double *q) {
  k<<<1, 32>>>(c, y, pp, m, q);
  return y[0];
}

void grad(const double *c, double *y, double *dy, double **pp, double **dpp,
          const int *m, const double *q) {
  __enzyme_autodiff((void *)loss, enzyme_const, c, enzyme_dup, y, dy,
                    enzyme_dup, pp, dpp, enzyme_const, m, enzyme_const, q);
}

// CHECK-LABEL: define {{.*}}void @__adcc_size__Z1kPKdPdPS1_PKiS0_(
// CHECK: store i64 22, ptr
// CHECK: ret void
