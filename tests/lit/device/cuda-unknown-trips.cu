// A combined gradient in CUDA device code whose reverse sweep needs records
// of a loop of run-time trip count n: the records (one per iteration) go to
// a reserve in the thread's frame, the bounded records plus the module's
// adcc_device_tape_bytes (here 4096; else 8192), each push checked against
// it. Past it, CUDA's assertion failure at the record (its file, line and
// function; the kernel stops), then a trap: never a write beyond the
// buffer, never a call of adcc's runtime. PTX accepted by ptxas for sm_80
// and sm_90 at -O0 and -O2. tests/gpu/gpu_device_tapes.cu runs such
// gradients on the grid emulation (ctest gpu.emulated_device_tapes*).
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o2.ptx
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefixes=CHECK,IR0
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm -DDEFAULT_RESERVE %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=DEFAULT
// PTX-NOT: adcc_tape
// PTX: __assertfail
// PTX-NOT: adcc_tape
// CHECK: @[[MSG:adcc.tape.overflow.text[0-9.]*]] = private unnamed_addr constant {{.*}} c"adcc: the tape of a gradient in device code needs more than its {{4[01][0-9][0-9]}} bytes per thread {{.*}}define adcc_device_tape_bytes larger than 4096\00"
// CHECK-LABEL: define {{.*}} @_Z1kPKdPdi(
// (the bounded records, none at -O2, plus 4096 bytes, in the frame)
// CHECK: alloca [{{4[01][0-9][0-9]}} x i8], align 16
// CHECK-NOT: call {{.*}}@adcc_
// (at -O2 the check of the offset may become one of the loop's counter)
// IR0: icmp ugt i64 %{{.*}}, {{4[01][0-9][0-9]}}
// CHECK-NOT: call {{.*}}@adcc_
// CHECK: call void @__assertfail(ptr {{(nonnull )?}}@[[MSG]], ptr {{.*}}, i32 [[@LINE+14]], ptr
// CHECK-NEXT: call void @llvm.trap()
// CHECK-NEXT: unreachable
// CHECK-NOT: call {{.*}}@adcc_
// CHECK: ret void
// DEFAULT: alloca [{{8[12][0-9][0-9]}} x i8], align 16
extern __device__ void __enzyme_autodiff(void *, ...);
#ifndef DEFAULT_RESERVE
extern "C" __device__ const unsigned long long adcc_device_tape_bytes = 4096;
#endif

__device__ double prod(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s *= sin(x[i]);
  return s;
}

__global__ void k(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)prod, x, dx, n);
}
