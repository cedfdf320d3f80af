// <adcc/kernels.hpp> compiled with -x cuda: the same kernel source launched
// on adcc::cuda (a __global__ trampoline: shared memory for group-local
// memory, bar.sync for the barrier, no host runtime call in device code)
// and on adcc::cpu; PTX that ptxas accepts for sm_80 and sm_90 at -O0 and
// -O2, a host+device object. The derivative kernels of the CUDA launch:
// the tangent kernel, the augmented kernel (its records in the thread's
// slot of the launch's tape buffer: the slot at global linear index times
// slot bytes, its offset set to 0), the reverse kernel (the mirrored
// barrier after the one that zeroes the shadow of group-local memory;
// atomic adds into shadows other threads touch and for the scalar's sum),
// and the query of the slot's size; the host's derivative calls the GPU
// launch's rules.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S %s -o %t/k80.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S %s -o %t/k90.ptx -Wno-unknown-cuda-version
// RUN: FileCheck %s --check-prefix=PTX < %t/k90.ptx
// RUN: FileCheck %s --check-prefix=PTX0 < %t/k80.ptx
// RUN: %ptxas -arch=sm_80 %t/k80.ptx -o %t/k80.cubin
// RUN: %ptxas -arch=sm_90 %t/k90.ptx -o %t/k90.cubin
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S -emit-llvm %s -o %t/dev.ll -Wno-unknown-cuda-version
// RUN: FileCheck %s --check-prefix=IR < %t/dev.ll
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -S -emit-llvm %s -o %t/host.ll -Wno-unknown-cuda-version
// RUN: FileCheck %s --check-prefix=HOST < %t/host.ll
// RUN: %adcc++ -std=c++17 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -c %s -o %t/k.o -Wno-unknown-cuda-version
// PTX: .extern .shared .align 16 .b8 adcc_kernel_shared[]
// PTX-NOT: adcc_tape
// PTX-NOT: adcc_split
// PTX: .visible .entry {{.*}}gpuTrampoline
// PTX: bar.sync 0
// PTX: .visible .entry {{.*}}gpuTangentKernel
// PTX: .visible .entry {{.*}}gpuSlotBytesKernel
// PTX: .visible .entry {{.*}}gpuAugmentedKernel
// PTX: .visible .entry {{.*}}gpuReverseKernel
// PTX: bar.sync 0
// PTX: atom.add.f64
// PTX: bar.sync 0
// PTX: atom.add.f64
// PTX-NOT: adcc_kernel_barrier
// PTX-NOT: adcc_tape
// PTX0-NOT: adcc_tape
// PTX0-NOT: adcc_split
// IR-LABEL: define {{.*}}gpuSlotBytesKernel
// IR: store i64 {{[1-9][0-9]*}}, ptr
// IR-LABEL: define {{.*}}gpuAugmentedKernel
// IR: %[[AT:[0-9]+]] = mul i64 %{{[0-9]+}}, %4
// IR-NEXT: %[[SLOT:[0-9]+]] = getelementptr inbounds nuw i8, ptr %3, i64 %[[AT]]
// IR-NOT: call {{.*}}@adcc_tape
// IR: store i64 0, ptr %[[SLOT]]
// IR: ret void
// IR-LABEL: define {{.*}}gpuReverseKernel
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR: %[[RAT:[0-9]+]] = mul i64 %{{[0-9]+}}, %4
// IR-NEXT: %[[RSLOT:[0-9]+]] = getelementptr inbounds nuw i8, ptr %3, i64 %[[RAT]]
// IR-NEXT: load i64, ptr %[[RSLOT]]
// IR: atomicrmw fadd
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR: ret void
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
