// A stencil in device code: x is read at the thread's element and at its
// neighbours', so the thread next door adds into x[i] too: every update of
// x's adjoint is atomic (a plain update of x[i] raced with them, losing
// adjoints). w is read only at the thread's element, but may point into
// x (restrict promises nothing for memory that is only read:
// stencil(x, x + 1, y) is valid C), and its updates race with x's: atomic
// too (plain before 2026-12-06; lit device/overlapping-parameters.cu).
// (Shared memory indexed by threadIdx.x follows the same rule.)
// REQUIRES: cuda
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version -Rpass=adcc 2>&1 | FileCheck %s
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o /dev/null -Wno-unknown-cuda-version -Rpass=adcc 2>&1 | FileCheck %s --check-prefix=O0
// CHECK: remark: reverse mode of 'stencil(double const*, double const*, double*)' in device code: adjoint updates of memory: 4 atomic adds (memory other threads may update: 3, the thread's element of an array another pointer parameter may overlap: 1), 0 plain
// (At -O0 the index is a local variable's load: every update is atomic.)
// O0: remark: reverse mode of 'stencil(double const*, double const*, double*)' in device code: adjoint updates of memory: 4 atomic adds (memory other threads may update: 4), 0 plain
extern __device__ void __enzyme_autodiff(void *, ...);

__device__ void stencil(const double *x, const double *__restrict__ w,
                        double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = w[i] * (x[i - 1] - 2 * x[i] + x[i + 1]);
}

__global__ void grad(const double *x, double *dx, const double *w, double *dw,
                     double *y, double *dy) {
  __enzyme_autodiff((void *)stencil, x, dx, w, dw, y, dy);
}
