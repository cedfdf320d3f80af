// HIP's warp shuffles of a double or a float (`__shfl_down(double,
// unsigned, int)` and the others of its header; here the stand-ins of
// tests/gpu/hip_shuffles.h, built without ROCm) have rules on AMDGPU: the
// tangent shuffled as the value; the adjoint gathered back to the lane the
// value came from, which the reverse sweep learns by shuffling the lane's
// id with the same function, in one round per lane of the wavefront
// (readlane of the adjoint and of the source, the ballot of the running
// lanes). No atomic adds, no call of adcc's runtime; the header's function
// is inlined after the AD pass.
// Objects for gfx90a and gfx942 at -O0 and -O2. The numbers:
// hip-warp-emulated.cpp.
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -O0 -S -emit-llvm -I%S/../../gpu %s -o - | FileCheck %s --check-prefix=CHECK
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx942 --cuda-device-only -O2 -S -emit-llvm -I%S/../../gpu %s -o - | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only --no-gpu-bundle-output -O0 -c -I%S/../../gpu %s -o %t/k0.o
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx942 --cuda-device-only --no-gpu-bundle-output -O2 -c -I%S/../../gpu %s -o %t/k2.o
// RUN: llvm-readelf -h -s %t/k0.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf -h -s %t/k2.o | FileCheck %s --check-prefix=ELF
// O2-NOT: define {{.*}}@_Z11__shfl_downdji(
// O2-NOT: define {{.*}}@adcc.warp
// CHECK-LABEL: define {{.*}} @_Z5gradsPKdPd(
// CHECK: call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
// CHECK: call i64 @llvm.amdgcn.ballot.i64(i1 true)
// CHECK: call double @llvm.amdgcn.readlane.f64(double
// CHECK: call i32 @llvm.amdgcn.readlane.i32(i32
// CHECK-NOT: atomicrmw
// CHECK-NOT: call {{.*}}@adcc_
// CHECK: ret void
// (forward: the tangent shuffled as the value, no rounds)
// CHECK-LABEL: define {{.*}} @_Z4tansPKdPd(
// CHECK-NOT: readlane
// CHECK-NOT: call {{.*}}@adcc_
// CHECK: ret void
// ELF: Machine: EM_AMDGPU
// ELF-NOT: adcc_
#include "hip_shuffles.h"

extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ double __enzyme_fwddiff(void *, ...);

// The tree of a wavefront: lane 0 gets the sum of the squares.
__device__ double tree(double x) {
  double v = x * x;
  for (int o = 32; o > 0; o /= 2)
    v += __shfl_down(v, o);
  return v;
}

__global__ void grads(const double *x, double *g) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  g[t] = __enzyme_autodiff((void *)tree, x[t]);
}

__global__ void tans(const double *x, double *g) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  g[t] = __enzyme_fwddiff((void *)tree, x[t], 1.0);
}
