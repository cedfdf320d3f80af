// <adcc/kernels.hpp> on adcc::cuda: the query kernel that tells the
// launch's derivative what the work-item does through the pointers of its
// argument tuple and their fields (device/LaunchPointers.h) gets the words
// as stores, at -O0 (through std::get's calls and stack slots) and -O2, and
// no call of adcc_kernel_gpu_pointers is left (ptxas assembles the PTX).
// The tuple holds Out at byte 0 (written: 1 << 48), X at 8 (read: 1 << 49
// | 8), C at 16 (nothing through itself), then C's fields, nodes (bit
// 63) whose parent is word 2 (C; bits 56-61): Coef at 0 (read), A at 8
// (written), B at 16 (read), Tmp at 24 (written). The count first: 7. (Numerically: e2e
// kernels_cuda_fields.cu on the grid emulation.)
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S %s -o %t/k.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/k.ptx -o %t/k.cubin
#include <adcc/kernels.hpp>

struct Ctx {
  const double *Coef;
  double *A, *B;
  double *Tmp;
};

struct Fields {
  __host__ __device__ void operator()(const adcc::index &Ix, const Ctx *C,
                                      const double *X, double *Out) const {
    int I = int(Ix.global_id(0));
    C->A[I] = X[I] * X[I];
    C->Tmp[I] = 2 * X[I];
    Out[I] = C->Coef[I % 5] * C->B[I];
  }
};

void launch(const Ctx *C, const double *X, double *Out) {
  adcc::launch(adcc::cuda, Fields{}, adcc::range(64), adcc::range(32), C, X,
               Out);
}

// CHECK-NOT: call {{.*}}@adcc_kernel_gpu_pointers
// CHECK-LABEL: define {{.*}}gpuPointersKernel
// CHECK-NOT: call {{.*}}@adcc_kernel_gpu_pointers
// CHECK: store i64 7, ptr
// CHECK: store i64 281474976710656, ptr
// CHECK: store i64 562949953421320, ptr
// CHECK: store i64 16, ptr
// CHECK: store i64 -9078693898825498624, ptr
// CHECK: store i64 -9078975373802209272, ptr
// CHECK: store i64 -9078693898825498608, ptr
// CHECK: store i64 -9078975373802209256, ptr
// CHECK: ret void
// CHECK-NOT: call {{.*}}@adcc_kernel_gpu_pointers
