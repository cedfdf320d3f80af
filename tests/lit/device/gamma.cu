// lgamma and tgamma in reverse mode in device code: the digamma function
// their derivatives need is the module's own (adcc.device.digamma: the
// reflection, the recurrence and the asymptotic series), never the host
// runtime's adcc_digamma. CUDA (sm_80 -O0, sm_90 -O2, ptxas) and AMDGPU
// (ocml's lgamma; gfx90a and gfx942 objects). The numbers:
// warp-emulated.cu (log_gamma, gamma).
// REQUIRES: cuda, llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o0.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/o2.ptx
// RUN: %adcc -x c --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -DAMDGPU -c %s -o %t/a0.o
// RUN: %adcc -x c --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -DAMDGPU -c %s -o %t/a2.o
// RUN: %adcc -x c --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -DAMDGPU -S -emit-llvm %s -o - | FileCheck %s --check-prefix=AMD
// RUN: llvm-readelf -h -s %t/a0.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf -h -s %t/a2.o | FileCheck %s --check-prefix=ELF
// IR-NOT: adcc_digamma
// IR: define internal double @adcc.device.digamma(double
// IR-NOT: adcc_digamma
// PTX-NOT: adcc_digamma
// PTX: .entry
// PTX-NOT: adcc_digamma
// AMD: define internal double @adcc.device.digamma(double
// AMD-NOT: call {{.*}}@adcc_
// ELF: Machine: EM_AMDGPU
// ELF-NOT: adcc_
#ifndef AMDGPU
extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ float __enzyme_autodiff_f(void *, ...) asm("__enzyme_autodiff");

__device__ double f(double x) { return lgamma(x) + tgamma(x) * x; }
__device__ float g(float x) { return lgammaf(x) * tgammaf(x); }

__global__ void gradients(const double *x, double *dx, const float *y,
                          float *dy) {
  dx[threadIdx.x] = __enzyme_autodiff((void *)f, x[threadIdx.x]);
  dy[threadIdx.x] = __enzyme_autodiff_f((void *)g, y[threadIdx.x]);
}
#else
extern double __enzyme_autodiff(void *, ...);
double __ocml_lgamma_f64(double);

static double f(double x) { return __ocml_lgamma_f64(x) * x; }

__attribute__((amdgpu_kernel)) void gradients(const double *x, double *dx) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  dx[t] = __enzyme_autodiff((void *)f, x[t]);
}
#endif
