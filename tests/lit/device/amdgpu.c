// AMDGPU device code, gfx90a and gfx942: forward and reverse mode, the
// workitem id inactive, llvm-readelf reads the objects, no call of adcc's
// runtime, atomic adds of adjoints into memory other work-items touch.
// REQUIRES: llvm-readelf
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c %s -o %t/a.o
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -c %s -o %t/b.o
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O0 -c %s -o %t/c.o
// RUN: llvm-readelf -h %t/a.o | FileCheck %s --check-prefix=ELF90A
// RUN: llvm-readelf -h %t/b.o | FileCheck %s --check-prefix=ELF942
// RUN: llvm-readelf -s %t/a.o | FileCheck %s --check-prefix=SYMS
// RUN: llvm-readelf -s %t/c.o | FileCheck %s --check-prefix=SYMS
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx942 -nogpulib -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// ELF90A: Machine: EM_AMDGPU
// ELF90A: Flags: {{.*}}gfx90a
// ELF942: Flags: {{.*}}gfx942
// SYMS-NOT: adcc_
// SYMS: tangent
// SYMS-NOT: adcc_
// IR-LABEL: define {{.*}} @shared_coefficient(
// IR: atomicrmw fadd ptr {{.*}} monotonic
// IR-LABEL: define {{.*}} @tangent(
// IR-NOT: call {{.*}}@adcc_
extern double __enzyme_fwddiff(void *, ...);
extern void __enzyme_autodiff(void *, ...);

static double f(double x) { return __builtin_sqrt(x) * x + __builtin_fma(x, x, 1.0); }

static void scaled(const double *c, const double *x, double *y) {
  int i = __builtin_amdgcn_workitem_id_x();
  y[i] = c[0] * x[i] * x[i];
}

__attribute__((amdgpu_kernel)) void shared_coefficient(const double *c, double *dc,
                                                       const double *x, double *dx,
                                                       double *y, double *dy) {
  __enzyme_autodiff((void *)scaled, c, dc, x, dx, y, dy);
}

__attribute__((amdgpu_kernel)) void tangent(const double *x, double *dx) {
  int i = __builtin_amdgcn_workitem_id_x();
  dx[i] = __enzyme_fwddiff((void *)f, x[i], 1.0);
}
