// Records of a loop of constant trip count on AMDGPU at -O0, as at -O2:
// the tape is a buffer in the work-item's frame (private memory), sized
// for the loop's 4 trips, with no call of adcc's runtime. (At -O0 the
// loop counter lives in a private stack slot used through a generic cast
// and lifetime markers; it is promoted so that the trip count is seen.)
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o %t/k0.o
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c %s -o %t/k2.o
// RUN: llvm-readelf -h -s %t/k0.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf -h -s %t/k2.o | FileCheck %s --check-prefix=ELF
// CHECK-LABEL: define {{.*}} @k(
// CHECK: alloca [{{[0-9]+}} x i8], align 16, addrspace(5)
// CHECK-NOT: call {{.*}}@adcc_
// CHECK: ret void
// ELF: Machine: EM_AMDGPU
// ELF-NOT: adcc_
extern double __enzyme_autodiff(void *, ...);

static double f(double x) {
  double p = 1;
  for (int k = 0; k < 4; ++k)
    p = p * (x + k) * p;
  return p;
}

__attribute__((amdgpu_kernel)) void k(const double *x, double *dx) {
  unsigned t = __builtin_amdgcn_workitem_id_x();
  dx[t] = __enzyme_autodiff((void *)f, x[t]);
}
