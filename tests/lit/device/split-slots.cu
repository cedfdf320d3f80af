// Split mode in CUDA device code with a tape slot per thread: the
// augmented sweep (__enzyme_augmentfwd with enzyme_tape) records in the
// slot the caller gives, the reverse sweep (__enzyme_reverse with the same
// pointer) reads it back; __enzyme_augmentsize is the slot's bytes (16 of
// header, the offset of the records, then the records of the loop of 4
// trips). No call of adcc's runtime; PTX accepted by ptxas at -O0 and -O2.
// The kernel launches of <adcc/kernels.hpp> use this for their augmented
// and reverse kernels (targets/kernels-cuda.cu).
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o2.ptx
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O0 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR0
// PTX-NOT: adcc_
// IR-LABEL: define {{.*}} @_Z4sizePm(
// IR: store i64 112, ptr
// IR-LABEL: define {{.*}} @_Z3augPKdPdS1_S1_dPcm(
// IR: %[[SLOT:[0-9]+]] = getelementptr inbounds nuw i8, ptr %5, i64 %{{[0-9]+}}
// IR-NEXT: store i64 0, ptr %[[SLOT]]
// IR-NOT: call {{.*}}@adcc_
// IR: ret void
// IR-LABEL: define {{.*}} @_Z3revPKdPdS1_S1_dPcm(
// IR: %[[RSLOT:[0-9]+]] = getelementptr inbounds nuw i8, ptr %5, i64 %{{[0-9]+}}
// IR-NEXT: load i64, ptr %[[RSLOT]]
// IR-NOT: call {{.*}}@adcc_
// IR: ret void
// IR0-NOT: call {{.*}}@adcc_
extern __device__ void __enzyme_augmentfwd(void *, ...);
extern __device__ void __enzyme_reverse(void *, ...);
extern __device__ unsigned long __enzyme_augmentsize(void *, ...);
__device__ int enzyme_dup, enzyme_const, enzyme_tape;

__device__ void f(const double *x, double *y, double c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double s = y[i];
  for (int k = 0; k < 4; ++k)
    s = sin(s) * x[i] + c;
  y[i] = s;
}

__global__ void size(unsigned long *out) {
  *out = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_dup, enzyme_const);
}

__global__ void aug(const double *x, double *dx, double *y, double *dy,
                    double c, char *tape, unsigned long bytes) {
  unsigned long i = blockIdx.x * blockDim.x + threadIdx.x;
  __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, c, enzyme_tape, tape + i * bytes);
}

__global__ void rev(const double *x, double *dx, double *y, double *dy,
                    double c, char *tape, unsigned long bytes) {
  unsigned long i = blockIdx.x * blockDim.x + threadIdx.x;
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, c, tape + i * bytes);
}
