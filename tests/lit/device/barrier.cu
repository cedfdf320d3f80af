// __syncthreads() in reverse mode: the reverse sweep runs a mirror of the
// barrier between the adjoint updates of the code after it (atomic adds
// into the shared shadow another thread reads) and those of the code
// before it, which read the shadow. ptxas accepts the PTX (sm_80, sm_90).
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// CHECK-LABEL: define {{.*}} @_Z6kernelPKdPd(
// CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// The augmented sweep: s[t] = x * x, the barrier, s[t + 1] read.
// CHECK: store double
// CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// CHECK: load double
// The reverse sweep: the adjoint of s[t + 1] added atomically, the mirror,
// then the adjoint of s[t] read (plain: the thread's own slot).
// CHECK: atomicrmw fadd ptr {{.*}} monotonic
// CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// CHECK-NEXT: load double
// CHECK-NEXT: store double 0.000000e+00
// CHECK-NOT: atomicrmw
// CHECK: ret void
extern __device__ double __enzyme_autodiff(void *, ...);

__device__ double exchange(double *s, double x) {
  s[threadIdx.x] = x * x;
  __syncthreads();
  return s[(threadIdx.x + 1) % 32] * x;
}

__global__ void kernel(const double *x, double *dx) {
  __shared__ double s[32], ds[32];
  ds[threadIdx.x] = 0;
  __syncthreads();
  dx[threadIdx.x] = __enzyme_autodiff((void *)exchange, s, ds, x[threadIdx.x]);
}
