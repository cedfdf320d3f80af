// An LDS array that the differentiated code names itself (HIP's
// __shared__), in reverse mode on AMDGPU: its shadow LDS array is zeroed
// by the work-group (the linear work-item id in the group, the group's
// sizes from the dispatch packet) before the sweeps, between barriers
// (release fence, s_barrier, acquire fence); the neighbour's slot takes
// its adjoint atomically, the primal's barrier is mirrored.
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c %s -o %t/k.o
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o %t/k0.o
// RUN: llvm-readelf -h %t/k.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf -h %t/k0.o | FileCheck %s --check-prefix=ELF0
// ELF: Flags: {{.*}}gfx942
// ELF0: Flags: {{.*}}gfx90a
// CHECK: @ring_shadow = {{.*}}addrspace(3) global [32 x double] undef
// CHECK-LABEL: define {{.*}} @kernel(
// CHECK: call {{.*}}ptr addrspace(4) @llvm.amdgcn.dispatch.ptr()
// CHECK: getelementptr inbounds nuw i64, ptr addrspace(3) @ring_shadow
// CHECK-NEXT: store i64 0, ptr addrspace(3)
// CHECK: fence syncscope("workgroup") release
// CHECK-NEXT: call void @llvm.amdgcn.s.barrier()
// CHECK-NEXT: fence syncscope("workgroup") acquire
// CHECK: atomicrmw fadd ptr {{.*}}, double {{.*}} monotonic
// CHECK-NEXT: fence syncscope("workgroup") release
// CHECK-NEXT: call void @llvm.amdgcn.s.barrier()
// CHECK-NEXT: fence syncscope("workgroup") acquire
// CHECK: fence syncscope("workgroup") release
// CHECK-NEXT: call void @llvm.amdgcn.s.barrier()
// CHECK-NEXT: fence syncscope("workgroup") acquire
// CHECK-NOT: call {{.*}}@adcc_
// CHECK: ret void
extern double __enzyme_autodiff(void *, ...);

static __attribute__((address_space(3), loader_uninitialized)) double ring[32];

static void barrier(void) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

static double exchange(double x) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  ring[t] = x * x;
  barrier();
  return ring[(t + 1) % 32] * x;
}

__attribute__((amdgpu_kernel)) void kernel(const double *x, double *dx) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  dx[t] = __enzyme_autodiff((void *)exchange, x[t]);
}
