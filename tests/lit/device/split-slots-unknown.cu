// Split mode in CUDA device code with records of unknown size: a loop of
// run-time trip count n. Its records (one per iteration: no array, whose
// size would have no bound) go to the thread's tape slot, each push
// checked against the slot's capacity (the records at the slot's start
// past it, the offset still counting); __enzyme_augmentsize is 16 bytes
// of header plus the capacity: the module's adcc_device_tape_bytes (here
// 4096), else 8192. (The combined gradient of the same function keeps
// them in a reserve in its frame: cuda-unknown-trips.cu.) No call of adcc's
// runtime; PTX accepted by ptxas for sm_80 and sm_90 at -O0 and -O2.
// tests/e2e/kernels_cuda_loops.cu runs such a kernel (a launch of
// <adcc/kernels.hpp>) on the grid emulation.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o2.ptx
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O0 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR0
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm -DDEFAULT_RESERVE %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=DEFAULT
// PTX-NOT: adcc_tape
// PTX-NOT: adcc_split
// (16 + the bounded records + 4096)
// IR-LABEL: define {{.*}} @_Z4sizePm(
// IR: store i64 [[SIZE:41[0-9][0-9]]], ptr
// IR-LABEL: define {{.*}} @_Z3augPKdPdS1_S1_iPcm(
// IR: store i64 0, ptr
// (each push: the new offset against the capacity, else the slot's start)
// IR: icmp ult i64 %{{.*}}, {{41[0-9][0-9]}}
// IR-NEXT: select i1 %{{.*}}, i64 %{{.*}}, i64 0
// IR-NOT: call {{.*}}@adcc_
// IR: ret void
// IR-LABEL: define {{.*}} @_Z3revPKdPdS1_S1_iPcm(
// IR-NOT: call {{.*}}@adcc_
// IR: ret void
// IR0: store i64 {{4[12][0-9][0-9]}}, ptr
// IR0: icmp ule i64 %{{.*}}, {{4[12][0-9][0-9]}}
// IR0-NEXT: select i1 %{{.*}}, i64 %{{.*}}, i64 0
// IR0-NOT: call {{.*}}@adcc_
// DEFAULT: store i64 {{82[0-9][0-9]}}, ptr
extern __device__ void __enzyme_augmentfwd(void *, ...);
extern __device__ void __enzyme_reverse(void *, ...);
extern __device__ unsigned long __enzyme_augmentsize(void *, ...);
__device__ int enzyme_dup, enzyme_const, enzyme_tape;
#ifndef DEFAULT_RESERVE
extern "C" __device__ const unsigned long long adcc_device_tape_bytes = 4096;
#endif

__device__ void f(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double s = y[i];
  for (int k = 0; k < n; ++k)
    s = s * x[i] + 1;
  y[i] = s;
}

__global__ void size(unsigned long *out) {
  *out = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_dup, enzyme_const);
}

__global__ void aug(const double *x, double *dx, double *y, double *dy, int n,
                    char *tape, unsigned long bytes) {
  unsigned long i = blockIdx.x * blockDim.x + threadIdx.x;
  __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, n, enzyme_tape, tape + i * bytes);
}

__global__ void rev(const double *x, double *dx, double *y, double *dy, int n,
                    char *tape, unsigned long bytes) {
  unsigned long i = blockIdx.x * blockDim.x + threadIdx.x;
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, n, tape + i * bytes);
}
