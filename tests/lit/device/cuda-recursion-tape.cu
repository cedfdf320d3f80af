// A combined gradient of a recursive function in device code: its
// augmented and reverse sweeps are functions of their own (each calls
// itself), so their records cannot live in either's frame. They share one
// tape in the frame of the function that calls both (here the kernel): a
// reserve of adcc_device_tape_bytes (8192 by default) behind a 16-byte
// offset, passed to both sweeps as a last parameter and down the
// recursion, every push checked against it (CUDA's assertion failure at
// the record past it). No call of adcc's runtime; PTX accepted by ptxas
// for sm_80 and sm_90 at -O0 and -O2. tests/gpu/gpu_device_tapes.cu runs
// such a gradient (per-thread depths) on the grid emulation.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o2.ptx
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s
// PTX-NOT: {{adcc_tape_|adcc_split_}}
// CHECK-LABEL: define {{.*}} @_Z1kPKdPdi(
// (16 bytes of offset, 8192 of records)
// CHECK: [[STATE:%[0-9a-z.]+]] = alloca [8208 x i8], align 16
// CHECK: call double @augmented__Z1rdi{{[0-9]*}}(double %{{[0-9]+}}, i32 %{{[0-9]+}}, ptr {{(nonnull )?}}[[STATE]])
// CHECK: call double @diffe__Z1rdi{{[0-9]*}}(double %{{[0-9]+}}, ptr {{(nonnull )?}}[[STATE]])
// CHECK-LABEL: define internal double @augmented__Z1rdi{{[0-9]*}}(double %0, i32 %1, ptr %2)
// CHECK: icmp ugt i64 %{{[0-9]+}}, 8192
// CHECK: call void @__assertfail(
// CHECK: call double @augmented__Z1rdi{{[0-9]*}}(double %{{[0-9]+}}, i32 %{{[0-9]+}}, ptr %2)
// CHECK-LABEL: define internal double @diffe__Z1rdi{{[0-9]*}}(
// CHECK: call double @diffe__Z1rdi{{[0-9]*}}(double %{{[0-9]+}}, ptr {{(nonnull )?}}%1)
// CHECK-NOT: call {{.*}}@adcc_
extern __device__ double __enzyme_autodiff_scalar(void *, ...);

__device__ double r(double x, int n) {
  if (n <= 0)
    return x;
  return sin(r(x, n - 1)) * x;
}

__global__ void k(const double *x, double *dx, int n) {
  dx[0] = __enzyme_autodiff_scalar((void *)r, x[0], n);
}
