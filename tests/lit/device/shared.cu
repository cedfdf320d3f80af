// A __shared__ array with derivatives, in forward mode: its shadow is
// another __shared__ array (address space 3). (Reverse mode:
// shared-reverse.cu.)
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o0.ptx
// IR: @tile_shadow = {{.*}}addrspace(3) global [32 x double] undef
// IR-LABEL: define {{.*}} @_Z7tangentPKdPd(
// IR: getelementptr {{.*}}(ptr addrspace(3) @tile_shadow to ptr)
// PTX: .shared .align 8 .b8 tile_shadow[256]
extern __device__ double __enzyme_fwddiff(void *, ...);

__shared__ double tile[32];

__device__ double f(double x) {
  tile[threadIdx.x] = x * x;
  __syncthreads();
  return tile[threadIdx.x] * 3;
}

__global__ void tangent(const double *x, double *dx) {
  dx[threadIdx.x] = __enzyme_fwddiff((void *)f, x[threadIdx.x], 1.0);
}
