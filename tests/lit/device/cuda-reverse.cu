// Reverse mode in CUDA device code: the tape lives in the thread's frame
// (no call of adcc's runtime at any level), adjoints of memory every
// thread reads (c) are atomic adds in global memory, and so are those of
// x[i] with i the global thread id: c may point into x (its restrict
// promises nothing for memory that is only read; plain before 2026-12-06,
// lit device/overlapping-parameters.cu), and the remark says which.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version -Rpass=adcc 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o2.ptx
// RUN: FileCheck %s --check-prefix=PTX0 < %t/o0.ptx
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR
// REMARK: remark: reverse mode of 'step(double const*, double const*, double*)' in device code: adjoint updates of memory: 3 atomic adds (memory other threads may update: 2, the thread's element of an array another pointer parameter may overlap: 1), 0 plain
// PTX-NOT: adcc_
// PTX-COUNT-3: atom.global.add.f64
// PTX-NOT: atom.
// PTX0-NOT: adcc_
// IR-LABEL: define {{.*}} @_Z4gradPKdPdS0_S1_S1_S1_(
// IR-COUNT-3: atomicrmw fadd ptr {{.*}} monotonic
// IR-NOT: atomicrmw
// IR: ret void
extern __device__ void __enzyme_autodiff(void *, ...);

__device__ void step(const double *__restrict__ c, const double *x,
                     double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = c[0] * sin(x[i]) + c[1] * x[i] * x[i];
}

__global__ void grad(const double *c, double *dc, const double *x, double *dx,
                     double *y, double *dy) {
  __enzyme_autodiff((void *)step, c, dc, x, dx, y, dy);
}
