// A combined gradient in AMDGPU device code whose reverse sweep needs
// records of a loop of run-time trip count: the records go to a reserve in
// the work-item's private memory (adcc_device_tape_bytes, else 8192 bytes,
// plus the bounded records), each push checked against it; past it, a
// trap at the record, after HIP's assertion failure (`__assert_fail`, the
// record's file, line and function) where the module defines it as HIP's
// headers do (here a stand-in, -DHIP_ASSERT); never a write beyond the
// buffer, never a call of adcc's runtime. Objects for gfx90a (-O0) and
// gfx942 (-O2) read by llvm-readelf.
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefixes=CHECK,IR0
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -S -emit-llvm -DHIP_ASSERT %s -o - | FileCheck %s --check-prefix=HIP
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o %t/k0.o
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c %s -o %t/k2.o
// RUN: llvm-readelf -h -s %t/k0.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf -h -s %t/k2.o | FileCheck %s --check-prefix=ELF
// CHECK-LABEL: define {{.*}} @k(
// CHECK: alloca [{{8[12][0-9][0-9]}} x i8], align 16, addrspace(5)
// CHECK-NOT: call {{.*}}@adcc_
// IR0: icmp ugt i64 %{{.*}}, {{8[12][0-9][0-9]}}
// CHECK-NOT: __assertfail
// CHECK: call void @llvm.trap()
// CHECK-NEXT: unreachable
// CHECK-NOT: call {{.*}}@adcc_
// CHECK: ret void
// HIP: @[[FILE:adcc.tape.overflow.text[0-9.]*]] = private unnamed_addr addrspace(1) constant {{.*}} c"{{.*}}amdgpu-unknown-trips.c\00"
// HIP-LABEL: define {{.*}} @k(
// HIP: call void @__assert_fail(ptr {{.*}}, ptr addrspacecast (ptr addrspace(1) @[[FILE]] to ptr), i32 [[@LINE+17]], ptr
// (HIP's __assert_fail does not return: no trap after it)
// HIP-NEXT: unreachable
// ELF: Machine: EM_AMDGPU
// ELF-NOT: adcc_
// ELF-NOT: __assertfail
extern double __enzyme_autodiff(void *, ...);
#ifdef HIP_ASSERT
void __assert_fail(const char *what, const char *file, unsigned line,
                   const char *function) {
  __builtin_trap();
}
#endif

static double f(double x, int n) {
  double p = 1;
  for (int k = 0; k < n; ++k)
    p = p * (x + k) * p;
  return p;
}

__attribute__((amdgpu_kernel)) void k(const double *x, double *dx,
                                      const int *n) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  dx[t] = __enzyme_autodiff((void *)f, x[t], n[t]);
}
