// CUDA: the derivative gets the primal's __host__ / __device__ target, also
// when that attribute is written after ADCC_FORWARD, and is callable from
// device code. (Device-only compile: no CUDA installation needed.)
// RUN: %adcc++ -x cuda --cuda-gpu-arch=sm_90 --cuda-device-only -nocudainc -nocudalib -S -emit-llvm %s -o - 2>&1 | FileCheck %s
// RUN: %adcc++ -x cuda --cuda-gpu-arch=sm_90 --cuda-device-only -nocudainc -nocudalib -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <adcc.h>
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __host__ __attribute__((host))

// CHECK-DAG: c"adcc.derivative:forward:1:_Z5d_dsqdd:Dual:Dual\00"
ADCC_FORWARD(d_dsq, Dual, Dual) __device__ double dsq(double x) { return x * x; }
// CHECK-DAG: c"adcc.derivative:forward:1:_Z5d_hsqdd:Dual:DualOnly\00"
__host__ __device__ ADCC_FORWARD(d_hsq, Dual, DualOnly) double hsq(double x) { return x * x; }

// CHECK: define {{.*}} @_Z6kernelPd(
// CHECK: call {{.*}} @_Z5d_dsqdd(
// CHECK: call {{.*}} @_Z5d_hsqdd(
__global__ void kernel(double *out) {
  out[0] = d_dsq(3.0, 1.0).d_return + d_hsq(2.0, 1.0);
}
