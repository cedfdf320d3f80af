// <adcc/kernels.hpp> compiled with -x cuda: the same kernel source launched
// on adcc::cuda (a __global__ trampoline: shared memory for group-local
// memory, bar.sync for the barrier, no host runtime call in device code)
// and on adcc::cpu; PTX that ptxas accepts for sm_80 and sm_90, a
// host+device object. A derivative of the CUDA launch calls the rule that
// stops with a message (no derivative without the kernel's part).
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S %s -o %t/k80.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -std=c++17 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S %s -o %t/k90.ptx -Wno-unknown-cuda-version
// RUN: FileCheck %s --check-prefix=PTX < %t/k90.ptx
// RUN: %ptxas -arch=sm_80 %t/k80.ptx -o %t/k80.cubin
// RUN: %ptxas -arch=sm_90 %t/k90.ptx -o %t/k90.cubin
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -S -emit-llvm %s -o %t/host.ll -Wno-unknown-cuda-version
// RUN: FileCheck %s --check-prefix=HOST < %t/host.ll
// RUN: %adcc++ -std=c++17 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -c %s -o %t/k.o -Wno-unknown-cuda-version
// PTX: .extern .shared .align 16 .b8 adcc_kernel_shared[]
// PTX: .visible .entry {{.*}}gpuTrampoline
// PTX: bar.sync 0
// PTX-NOT: adcc_kernel_barrier
// PTX-NOT: adcc_kernel_local
// HOST: call {{.*}}@adcc_kernel_launch_aug(
// HOST: call {{.*}}@adcc_kernel_launch_gpu_aug(
// HOST: call {{.*}}@adcc_kernel_launch_gpu_rev(
// HOST: call {{.*}}@adcc_kernel_launch_rev(
#include "Inputs/kernels-stencil.h"

double loss(const double *X, double *Y, double *Z, int N) {
  adcc::launch(adcc::cpu, Stencil{}, adcc::range(N), adcc::range(WG), X, Y,
               adcc::Const(N));
  adcc::launch(adcc::cuda, Stencil{}, adcc::range(N), adcc::range(WG),
               static_cast<const double *>(Y), Z, adcc::Const(N));
  return Z[0];
}

void gradient(const double *X, double *DX, double *Y, double *DY, double *Z,
              double *DZ, int N) {
  adcc::gradient(loss, adcc::Duplicated<const double>(X, DX),
                 adcc::Duplicated(Y, DY), adcc::Duplicated(Z, DZ),
                 adcc::Const(N));
}
