// A combined gradient of a recursive function on AMDGPU: the two sweeps,
// each recursive, share one tape in the kernel's private memory (16 bytes
// of offset, adcc_device_tape_bytes of records), passed to both as a last
// parameter, every push checked (a trap past the end); no call of adcc's
// runtime. gfx90a at -O0, gfx942 at -O2, objects read by llvm-readelf.
// (cuda-recursion-tape.cu: the same on NVPTX; gpu_device_tapes.cu runs it.)
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o %t/k0.o
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c %s -o %t/k2.o
// RUN: llvm-readelf -h -s %t/k0.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf -h -s %t/k2.o | FileCheck %s --check-prefix=ELF
// CHECK-LABEL: define {{.*}} @k(
// CHECK: [[STATE:%[0-9]+]] = alloca [8208 x i8], align 16, addrspace(5)
// CHECK: [[GENERIC:%[0-9]+]] = addrspacecast ptr addrspace(5) [[STATE]] to ptr
// CHECK: call double @augmented_r{{[.0-9]*}}(double %{{[0-9]+}}, i32 %{{[0-9]+}}, ptr [[GENERIC]])
// CHECK: call double @diffe_r{{[.0-9]*}}(double %{{[0-9]+}}, ptr [[GENERIC]])
// CHECK-LABEL: define internal double @augmented_r{{[.0-9]*}}(double %0, i32 %1, ptr %2)
// CHECK: icmp ugt i64 %{{[0-9]+}}, 8192
// CHECK: call void @llvm.trap()
// CHECK-NOT: call {{.*}}@adcc_
// ELF: Machine: EM_AMDGPU
// ELF-NOT: adcc_
extern double __enzyme_autodiff(void *, ...);

static double r(double x, int n) {
  if (n <= 0)
    return x;
  return r(x, n - 1) * x + 0.5 * x;
}

__attribute__((amdgpu_kernel)) void k(const double *x, double *dx,
                                      const int *n) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  dx[t] = __enzyme_autodiff((void *)r, x[t], n[t]);
}
