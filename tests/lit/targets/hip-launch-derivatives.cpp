// HIP's own launch syntax in differentiated host code, compiled for AMDGPU
// without HIP's headers (the declarations of <adcc/kernels.hpp>): gfx90a
// and gfx942 objects hold the derivative kernels of the launched kernel
// (tangent, tape-slot size, augmented, reverse), the reverse kernel adds
// the scalar's adjoint atomically; the host code's gradient pushes the
// configuration and runs the augmented then the reverse launch; the direct
// hipLaunchKernel call becomes the same launch.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only --no-gpu-bundle-output -c %s -o %t/k90a.o
// RUN: %adcc++ -std=c++17 -O0 -x hip -nogpuinc -nogpulib --offload-arch=gfx942 --cuda-device-only --no-gpu-bundle-output -c %s -o %t/k942.o
// RUN: llvm-readelf -h -s %t/k90a.o | FileCheck %s --check-prefixes=OBJ,GFX90A
// RUN: llvm-readelf -h -s %t/k942.o | FileCheck %s --check-prefixes=OBJ,GFX942
// RUN: %adcc++ -std=c++17 -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %adcc++ -std=c++17 -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-host-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=HOST
#include <adcc/kernels.hpp>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

__global__ void cube(double a, const double *x, double *y) {
  unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 +
               __builtin_amdgcn_workitem_id_x();
  y[i] = a * x[i] * x[i] * x[i];
}

double loss(double a, const double *x, double *y) {
  cube<<<4, 64>>>(a, x, y);
  void *args[] = {&a, &x, &y};
  hipLaunchKernel((const void *)cube, dim3(4), dim3(64), args, 0, nullptr);
  hipDeviceSynchronize();
  return y[0] + y[255];
}

double grad(double a, const double *x, double *dx, double *y, double *dy) {
  return __enzyme_autodiff((void *)loss, a, enzyme_dup, x, dx, enzyme_dup, y,
                           dy);
}

// GFX90A: Machine: EM_AMDGPU
// GFX90A: Flags: {{.*}}gfx90a
// GFX942: Machine: EM_AMDGPU
// GFX942: Flags: {{.*}}gfx942
// OBJ-DAG: __adcc_fwd__Z4cubedPKdPd.kd
// OBJ-DAG: __adcc_size__Z4cubedPKdPd.kd
// OBJ-DAG: __adcc_aug__Z4cubedPKdPd.kd
// OBJ-DAG: __adcc_rev__Z4cubedPKdPd.kd
// OBJ-DAG: _Z4cubedPKdPd.kd

// IR-LABEL: define protected amdgpu_kernel void @__adcc_rev__Z4cubedPKdPd(
// IR: atomicrmw fadd ptr {{.*}}, double {{.*}} monotonic
// IR: ret void

// HOST-LABEL: define {{.*}} @_Z4graddPKdPdS1_S1_(
// HOST: call i32 @__hipPushCallConfiguration(
// HOST: call ptr @_Z19__device_stub__cubedPKdPd.adcc_aug(
// HOST: call i32 @__hipPushCallConfiguration(
// HOST: call ptr @_Z19__device_stub__cubedPKdPd.adcc_aug(
// HOST: call double @_Z19__device_stub__cubedPKdPd.adcc_rev(
// HOST: call double @_Z19__device_stub__cubedPKdPd.adcc_rev(
// HOST-NOT: call {{.*}}@hipLaunchKernel(
// HOST: ret double
