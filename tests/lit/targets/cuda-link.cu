// CUDA compile-and-link in one call, with the classic and the new offload
// driver (the latter runs LLVM 22's clang-linker-wrapper).
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 %s -o %t/a.out -L%cuda_path/lib64 -lcudart -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --offload-new-driver %s -o %t/b.out -L%cuda_path/lib64 -lcudart -Wno-unknown-cuda-version
// RUN: %adcc++ -### -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --offload-new-driver %s -o %t/b.out -Wno-unknown-cuda-version 2>&1 | FileCheck %s
// RUN: llvm-readelf -S %t/a.out | FileCheck %s --check-prefix=FATBIN
// CHECK: "{{.*}}llvm-22{{.*}}clang-linker-wrapper"
// CHECK-SAME: libadcc_rt.a
// FATBIN: .nv_fatbin
__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }
int main() { return 0; }
