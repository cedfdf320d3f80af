// AMDGPU: the group size read through the dispatch pointer is inactive,
// and y[i] with i = workgroup id * group size + workitem id (the global
// thread id) gets a plain adjoint update, as the remark says.
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -S -emit-llvm -Rpass=adcc %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t.ll
// REMARK: remark: reverse mode of 'f' in device code: adjoint updates of memory: 0 atomic adds, 1 plain (indexed by the global thread id: 1)
// CHECK-LABEL: define {{.*}} @k(
// CHECK-NOT: atomicrmw
// CHECK: ret void
extern void __enzyme_autodiff(void *, ...);

static void f(const double *x, double *y) {
  const unsigned short *p =
      (const unsigned short *)__builtin_amdgcn_dispatch_ptr();
  unsigned i = __builtin_amdgcn_workgroup_id_x() * p[2] +
               __builtin_amdgcn_workitem_id_x();
  y[i] = x[i] * x[i];
}

__attribute__((amdgpu_kernel)) void k(const double *x, double *dx, double *y,
                                      double *dy) {
  __enzyme_autodiff((void *)f, x, dx, y, dy);
}
