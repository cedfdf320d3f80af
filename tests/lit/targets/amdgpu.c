// AMDGPU: a gfx90a ELF object.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc --target=amdgcn-amd-amdhsa -mcpu=gfx90a -nogpulib -O2 -c %s -o %t/k.o
// RUN: llvm-readelf -h %t/k.o | FileCheck %s
// CHECK: Machine: EM_AMDGPU
// CHECK: Flags: {{.*}}gfx90a
float scale(float *x, int i) { return 2.0f * x[i]; }
