// CUDA: device PTX that ptxas accepts, and a host+device object.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S %s -o %t/k.ptx -Wno-unknown-cuda-version
// RUN: FileCheck %s --check-prefix=PTX < %t/k.ptx
// RUN: %ptxas -arch=sm_90 %t/k.ptx -o %t/k.cubin
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -c %s -o %t/k.o -Wno-unknown-cuda-version
// RUN: llvm-readelf -S %t/k.o | FileCheck %s --check-prefix=HOST
// PTX: .target sm_90
// PTX: .visible .entry {{.*}}axpy
// HOST: .nv_fatbin
__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
