// Forward mode in CUDA device code: libdevice's sin keeps its rule (its
// partial calls libdevice's cos, linked after the AD pass), the thread
// index is inactive, and the PTX is accepted by ptxas for sm_80 and sm_90
// at -O0 and -O2, without a call of adcc's host runtime.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o2.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/o0.ptx
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR
// PTX-NOT: adcc_
// PTX: .visible .entry {{.*}}tangent
// IR-LABEL: define {{.*}} @_Z7tangentPKdPd(
// IR-NOT: call {{.*}}@__nv_sin
// IR-NOT: call {{.*}}@__nv_cos
// IR: ret void
extern __device__ double __enzyme_fwddiff(void *, ...);

__device__ double f(double x) { return sin(x) * x + sqrt(x); }

__global__ void tangent(const double *x, double *dx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dx[i] = __enzyme_fwddiff((void *)f, x[i], 1.0);
}
