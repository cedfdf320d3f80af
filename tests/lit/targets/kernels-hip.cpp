// <adcc/kernels.hpp> compiled with -x hip and no HIP headers (-nogpuinc):
// the same kernel source launched on adcc::hip and adcc::cpu; gfx90a and
// gfx942 device objects (the barrier as s_barrier between workgroup
// fences, group-local memory in LDS, no host runtime call in device code)
// and a host+device object, at -O0 and -O2. A host function that launches
// on adcc::hip is differentiated: its derivative kernels (tangent,
// augmented with per-thread tape slots, reverse with atomic adjoint updates
// and the mirrored barrier) are in the device objects; the host calls the
// GPU launch's rules.
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only --no-gpu-bundle-output -c %s -o %t/k90a.o
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx942 --cuda-device-only --no-gpu-bundle-output -c %s -o %t/k942.o
// RUN: llvm-readelf -h %t/k90a.o | FileCheck %s --check-prefix=GFX90A
// RUN: llvm-readelf -h %t/k942.o | FileCheck %s --check-prefix=GFX942
// RUN: %adcc++ -std=c++17 -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only --no-gpu-bundle-output -S -emit-llvm %s -o %t/dev.ll
// RUN: FileCheck %s --check-prefix=IR < %t/dev.ll
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a -c %s -o %t/k.o
// RUN: %adcc++ -std=c++17 -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx942 --cuda-device-only --no-gpu-bundle-output -c %s -o %t/k942o2.o
// RUN: llvm-readelf -h %t/k942o2.o | FileCheck %s --check-prefix=GFX942
// RUN: %adcc++ -std=c++17 -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-host-only -S -emit-llvm %s -o %t/host.ll
// RUN: FileCheck %s --check-prefix=HOST < %t/host.ll
// GFX90A: Machine: EM_AMDGPU
// GFX90A: Flags: {{.*}}gfx90a
// GFX942: Machine: EM_AMDGPU
// GFX942: Flags: {{.*}}gfx942
// IR: @adcc_kernel_shared = external {{.*}}addrspace(3) global
// IR: define {{.*}}amdgpu_kernel {{.*}}gpuTrampoline
// IR: fence syncscope("workgroup") release
// IR-NEXT: call void @llvm.amdgcn.s.barrier()
// IR-NEXT: fence syncscope("workgroup") acquire
// IR-NOT: adcc_kernel_barrier
// IR-NOT: adcc_tape
// IR-LABEL: define {{.*}}amdgpu_kernel {{.*}}gpuReverseKernel
// IR: call void @llvm.amdgcn.s.barrier()
// IR: atomicrmw fadd
// IR: call void @llvm.amdgcn.s.barrier()
// IR: ret void
// HOST: call {{.*}}@adcc_kernel_launch_gpu_aug(
// HOST: call {{.*}}@adcc_kernel_launch_gpu_rev(
#include "Inputs/kernels-stencil.h"

void run(const double *X, double *Y, double *Z, int N) {
  adcc::launch(adcc::hip, Stencil{}, adcc::range(N), adcc::range(WG), X, Y,
               adcc::Const(N));
  adcc::launch(adcc::cpu, Stencil{}, adcc::range(N), adcc::range(WG),
               static_cast<const double *>(Y), Z, adcc::Const(N));
}

double loss(const double *X, double *Y, int N) {
  adcc::launch(adcc::hip, Stencil{}, adcc::range(N), adcc::range(WG), X, Y,
               adcc::Const(N));
  return Y[0];
}

void gradient(const double *X, double *DX, double *Y, double *DY, int N) {
  adcc::gradient(loss, adcc::Duplicated<const double>(X, DX),
                 adcc::Duplicated(Y, DY), adcc::Const(N));
}
