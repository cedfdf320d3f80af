// The rule of lit device/overlapping-parameters.cu on AMDGPU: two pointer
// parameters may point into one array (pair(x, x + 1)), so the thread's
// own elements get atomic adds unless a parameter is restrict and written
// through (restrict parameters that are only read may overlap: atomic,
// plain before 2026-12-06); -O0 keeps every update atomic.
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -O2 -S %s -o /dev/null -Rpass=adcc 2>&1 | FileCheck %s
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -O0 -S %s -o /dev/null -Rpass=adcc 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
extern __device__ void __enzyme_autodiff(void *, ...);

__device__ int globalId() {
  return __builtin_amdgcn_workgroup_id_x() *
             __builtin_amdgcn_workgroup_size_x() +
         __builtin_amdgcn_workitem_id_x();
}

__device__ void pair(const double *x, const double *y, double *s) {
  int i = globalId();
  s[i] = x[i] * y[i];
}
// CHECK-DAG: amdgpu-overlapping-parameters.cpp:[[#@LINE-4]]:1: remark: reverse mode of 'pair(double const*, double const*, double*)' in device code: adjoint updates of memory: 2 atomic adds (the thread's element of an array another pointer parameter may overlap: 2), 0 plain [-Rpass=adcc]
// O0-DAG: amdgpu-overlapping-parameters.cpp:[[#@LINE-5]]:1: remark: reverse mode of 'pair(double const*, double const*, double*)' in device code: adjoint updates of memory: 2 atomic adds (memory other threads may update: 2), 0 plain [-Rpass=adcc]

__device__ void pair_restrict(const double *__restrict__ x,
                              const double *__restrict__ y, double *s) {
  int i = globalId();
  s[i] = x[i] * y[i];
}
// CHECK-DAG: amdgpu-overlapping-parameters.cpp:[[#@LINE-4]]:1: remark: reverse mode of 'pair_restrict(double const*, double const*, double*)' in device code: adjoint updates of memory: 2 atomic adds (the thread's element of an array another pointer parameter may overlap: 2), 0 plain [-Rpass=adcc]

// Written through and restrict: no other parameter reaches x.
__device__ void scale_restrict(double *__restrict__ x, const double *y) {
  int i = globalId();
  x[i] = x[i] * y[i];
}
// CHECK-DAG: amdgpu-overlapping-parameters.cpp:[[#@LINE-4]]:1: remark: reverse mode of 'scale_restrict(double*, double const*)' in device code: adjoint updates of memory: 0 atomic adds, 2 plain (indexed by the global thread id: 2) [-Rpass=adcc]

__global__ void grad_pair(const double *x, double *dx, double *s, double *ds) {
  __enzyme_autodiff((void *)pair, x, dx, x + 1, dx + 1, s, ds);
}
// IR-LABEL: define {{.*}} @_Z9grad_pairPKdPdS1_S1_(
// IR-COUNT-2: atomicrmw fadd ptr {{.*}} monotonic
// IR-NOT: atomicrmw
// IR: ret void

__global__ void grad_restrict(const double *x, double *dx, double *s,
                              double *ds) {
  __enzyme_autodiff((void *)pair_restrict, x, dx, s, ds, s + 256, ds + 256);
}
// IR-LABEL: define {{.*}} @_Z13grad_restrictPKdPdS1_S1_(
// IR-COUNT-2: atomicrmw fadd ptr {{.*}} monotonic
// IR-NOT: atomicrmw
// IR: ret void

__global__ void grad_scale(double *x, double *dx, double *s, double *ds) {
  __enzyme_autodiff((void *)scale_restrict, x, dx, s, ds);
}
// IR-LABEL: define {{.*}} @_Z10grad_scalePdS_S_S_(
// IR-NOT: atomicrmw
// IR: ret void
