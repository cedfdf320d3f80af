// AMDGPU's __syncthreads() (release fence, s_barrier, acquire fence) in
// reverse mode: mirrored in the reverse sweep, the adjoint of the
// neighbour's LDS slot added atomically in address space 3.
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c %s -o %t/k.o
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o %t/k0.o
// RUN: llvm-readelf -h %t/k.o | FileCheck %s --check-prefix=ELF
// ELF: Flags: {{.*}}gfx942
// CHECK-LABEL: define {{.*}} @kernel(
// CHECK: fence syncscope("workgroup") release
// CHECK-NEXT: call void @llvm.amdgcn.s.barrier()
// CHECK-NEXT: fence syncscope("workgroup") acquire
// CHECK: atomicrmw fadd ptr addrspace(3) {{.*}} monotonic
// CHECK-NEXT: fence syncscope("workgroup") release
// CHECK-NEXT: call void @llvm.amdgcn.s.barrier()
// CHECK-NEXT: fence syncscope("workgroup") acquire
extern double __enzyme_autodiff(void *, ...);
typedef __attribute__((address_space(3))) double lds_double;

static double exchange(lds_double *s, double x) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  s[t] = x * x;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  return s[(t + 1) % 32] * x;
}

__attribute__((amdgpu_kernel)) void kernel(const double *x, double *dx,
                                           lds_double *s, lds_double *ds) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  dx[t] = __enzyme_autodiff((void *)exchange, s, ds, x[t]);
}
