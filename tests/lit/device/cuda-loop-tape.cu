// A loop of constant trip count records into a buffer in the thread's
// frame (sm_80 and sm_90, -O0 and -O2); ptxas accepts the PTX.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s < %t/o0.ptx
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O0 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR
// CHECK-NOT: adcc_
// IR: alloca [{{[0-9]+}} x i8], align 16
// IR-NOT: call {{.*}}@adcc_
extern __device__ void __enzyme_autodiff(void *, ...);

__device__ double prod(const double *x) {
  double s = 1;
  for (int i = 0; i < 4; ++i)
    s *= sin(x[i]);
  return s;
}

__global__ void grad(const double *x, double *dx) {
  __enzyme_autodiff((void *)prod, x, dx);
}
