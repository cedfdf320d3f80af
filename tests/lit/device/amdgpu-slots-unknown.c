// Split mode on AMDGPU with records of unknown size (a loop of run-time
// trip count n), as on NVPTX (split-slots-unknown.cu): the records go to
// the work-item's tape slot, each push checked against the slot's
// capacity (the records at the slot's start past it); the slot's size is
// 16 + the records of known size + the module's adcc_device_tape_bytes
// (here 2048). No call of adcc's runtime; gfx90a and gfx942 objects at
// -O0 and -O2.
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o %t/k0.o
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c %s -o %t/k2.o
// RUN: llvm-readelf -h -s %t/k0.o | FileCheck %s --check-prefix=ELF
// RUN: llvm-readelf -h -s %t/k2.o | FileCheck %s --check-prefix=ELF
// CHECK-LABEL: define {{.*}} @size(
// CHECK: store i64 {{20[6-9][0-9]|21[0-9][0-9]}}, ptr
// CHECK-LABEL: define {{.*}} @aug(
// CHECK: icmp ult i64 %{{.*}}, {{20[6-9][0-9]|21[0-9][0-9]}}
// CHECK-NEXT: select i1 %{{.*}}, i64 %{{.*}}, i64 0
// CHECK-NOT: call {{.*}}@adcc_
// CHECK: ret void
// CHECK-LABEL: define {{.*}} @rev(
// CHECK-NOT: call {{.*}}@adcc_
// CHECK: ret void
// O0: icmp ule i64 %{{.*}}, {{20[4-9][0-9]|21[0-9][0-9]}}
// O0-NOT: call {{.*}}@adcc_
// ELF: Machine: EM_AMDGPU
// (no symbol of the runtime; the module's own adcc_device_tape_bytes stays)
// ELF-NOT: adcc_tape
// ELF-NOT: adcc_split
extern void __enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern unsigned long __enzyme_augmentsize(void *, ...);
int enzyme_dup, enzyme_const, enzyme_tape;
const unsigned long long adcc_device_tape_bytes = 2048;

static void f(const double *x, double *y, int n) {
  unsigned i = __builtin_amdgcn_workitem_id_x();
  double s = y[i];
  for (int k = 0; k < n; ++k)
    s = s * x[i] + 1;
  y[i] = s;
}

__attribute__((amdgpu_kernel)) void size(unsigned long *out) {
  *out = __enzyme_augmentsize((void *)f, enzyme_dup, enzyme_dup, enzyme_const);
}

__attribute__((amdgpu_kernel)) void aug(const double *x, double *dx,
                                        double *y, double *dy, int n,
                                        char *tape, unsigned long bytes) {
  unsigned i = __builtin_amdgcn_workitem_id_x();
  __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, n, enzyme_tape, tape + i * bytes);
}

__attribute__((amdgpu_kernel)) void rev(const double *x, double *dx,
                                        double *y, double *dy, int n,
                                        char *tape, unsigned long bytes) {
  unsigned i = __builtin_amdgcn_workitem_id_x();
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, n, tape + i * bytes);
}
