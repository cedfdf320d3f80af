// __shared__ arrays that the differentiated code names itself, in reverse
// mode: each gets a shadow __shared__ array that the block zeroes
// cooperatively before the sweeps (a strided loop over the linear thread
// index in the block, then a barrier), with a barrier after the reverse
// sweep. The adjoint updates into the shadow are plain where each thread
// touches only its own element (tile[threadIdx.x]), atomic where a thread
// reads its neighbour's (ring[(threadIdx.x + 1) % 32]); the primal's
// barrier is mirrored. Through __enzyme_autodiff and ADCC_REVERSE.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version -Rpass=adcc 2>%t/remarks | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=REMARK < %t/remarks
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o0.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/o2.ptx
//
// IR-DAG: @tile_shadow = {{.*}}addrspace(3) global [32 x double] undef
// IR-DAG: @ring_shadow = {{.*}}addrspace(3) global [32 x double] undef
// IR-DAG: @odd_shadow = {{.*}}addrspace(3) global [7 x float] undef
//
// The thread's own element: zeroing, barrier, no atomic add.
// IR-LABEL: define {{.*}} @_Z4ownsPKdPd(
// IR-NOT: atomicrmw
// IR: getelementptr inbounds nuw i64, ptr addrspace(3) @tile_shadow
// IR-NEXT: store i64 0, ptr addrspace(3)
// IR-NOT: atomicrmw
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR-NOT: atomicrmw
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR-NOT: atomicrmw
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR-NOT: atomicrmw
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR-NOT: atomicrmw
// IR: ret void
//
// The neighbour's element: the adjoint added atomically into the shadow,
// before the mirrored barrier.
// IR-LABEL: define {{.*}} @_Z10neighboursPKdPd(
// IR: getelementptr inbounds nuw i64, ptr addrspace(3) @ring_shadow
// IR-NEXT: store i64 0, ptr addrspace(3)
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR: [[SHADOW:%[0-9]+]] = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @ring_shadow to ptr)
// IR: atomicrmw fadd ptr [[SHADOW]], double {{.*}} monotonic
// IR-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR-NEXT: getelementptr
// IR-NEXT: store double
// IR-NEXT: ret void
//
// 28 bytes of floats: zeroed a word of 4 bytes at a time.
// IR-LABEL: define {{.*}} @_Z12d_square_sumff(
// IR: getelementptr inbounds nuw i32, ptr addrspace(3) @odd_shadow
// IR-NEXT: store i32 0, ptr addrspace(3)
// IR-NOT: call {{.*}}@adcc_
//
// REMARK: remark: reverse mode of 'own(double)' in device code: adjoint updates of memory: 0 atomic adds, 1 plain (shared memory indexed by the thread's index in its block: 1)
// REMARK: remark: reverse mode of 'neighbour(double)' in device code: adjoint updates of memory: 1 atomic adds (memory other threads may update: 1), 0 plain
//
// PTX-NOT: adcc_
// PTX-DAG: .shared .align 8 .b8 tile_shadow[256]
// PTX-DAG: .shared .align 8 .b8 ring_shadow[256]
// PTX-DAG: .shared .align 4 .b8 odd_shadow[28]
// PTX-DAG: atom.{{(shared.)?}}add.f64
// PTX-DAG: bar.sync 0
extern __device__ double __enzyme_autodiff(void *, ...);
#include <adcc.h>

__shared__ double tile[32];
__shared__ double ring[32];
__shared__ float odd[7];

__device__ double own(double x) {
  tile[threadIdx.x] = x * x;
  __syncthreads();
  return tile[threadIdx.x] * 3;                  // 3 x^2
}

__device__ double neighbour(double x) {
  ring[threadIdx.x] = x * x;
  __syncthreads();
  return ring[(threadIdx.x + 1) % 32] * x;       // x_{t+1}^2 x_t
}

ADCC_REVERSE(d_square_sum, Active, Active)
__device__ float square_sum(float x);
__device__ float square_sum(float x) {
  if (threadIdx.x < 7)
    odd[threadIdx.x] = x * x;
  __syncthreads();
  float s = 0;
  for (int i = 0; i < 7; ++i)
    s += odd[i];
  return s * x;
}

__global__ void owns(const double *x, double *dx) {
  dx[threadIdx.x] = __enzyme_autodiff((void *)own, x[threadIdx.x]);
}

__global__ void neighbours(const double *x, double *dx) {
  dx[threadIdx.x] = __enzyme_autodiff((void *)neighbour, x[threadIdx.x]);
}

__global__ void squares(const float *x, float *dx) {
  dx[threadIdx.x] = d_square_sum(x[threadIdx.x], 1.0f).d_x;
}
