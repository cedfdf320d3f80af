// HIP's form of device/cuda-launch-struct-floats.cu: AMDGPU passes a
// kernel's struct parameter by reference to the kernel's arguments (byref,
// the constant address space), and at -O0 the kernel copies it into a
// local. The derivative kernels read the members from the arguments'
// struct V and their tangents from D; the reverse kernel adds the
// members' adjoints into D with atomic adds through the global address
// space, or at -O0 the generic one (the kernel's local copy is the
// parameter, read through its generic address): AMDGPU has no atomics on
// the constant one ("Unsupported atomic address space" at -O2 before). gfx90a and gfx942 objects, -O0 and -O2.
// Numerically: tests/gpu/hip_struct_floats.cpp on the grid emulation.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only --no-gpu-bundle-output -c %s -o %t/k90a.o
// RUN: %adcc++ -std=c++17 -O0 -x hip -nogpuinc -nogpulib --offload-arch=gfx942 --cuda-device-only --no-gpu-bundle-output -c %s -o %t/k942.o
// RUN: llvm-readelf -s %t/k90a.o | FileCheck %s --check-prefix=OBJ
// RUN: llvm-readelf -s %t/k942.o | FileCheck %s --check-prefix=OBJ
// RUN: %adcc++ -std=c++17 -O2 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %adcc++ -std=c++17 -O0 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <adcc/kernels.hpp>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

struct Params {
  double a;
  const double *x;
  double *y;
  float w;
  int n;
};

__global__ void poly(Params p) {
  int i = __builtin_amdgcn_workitem_id_x();
  if (i < p.n)
    p.y[i] = p.a * p.x[i] * p.x[i] + p.w * p.x[i];
}

double loss(const Params *p) {
  poly<<<1, 64>>>(*p);
  return p->y[0];
}

void grad(const Params *p, Params *dp) {
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp);
}

// OBJ-DAG: __adcc_fwd__Z4poly6Params
// OBJ-DAG: __adcc_aug__Z4poly6Params
// OBJ-DAG: __adcc_rev__Z4poly6Params

// IR-NOT: warning:
// IR-NOT: atomicrmw {{.*}} ptr addrspace(4)
// IR-LABEL: define {{.*}}void @__adcc_rev__Z4poly6Params(
// IR-NOT: atomicrmw {{.*}} ptr addrspace(4)
// IR-DAG: atomicrmw fadd ptr{{( addrspace\(1\))?}} %{{[0-9]+}}, float %{{[0-9]+}}
// IR-DAG: atomicrmw fadd ptr{{( addrspace\(1\))?}} %{{[0-9]+}}, double %{{[0-9]+}}
// IR-NOT: atomicrmw {{.*}} ptr addrspace(4)
// IR: ret void
