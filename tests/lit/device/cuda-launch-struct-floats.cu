// A launched kernel whose struct parameter by value holds floating-point
// members (issue 35): the members are the kernel's active scalars. The
// reverse kernel adds each thread's adjoint of the double member `a` (at
// byte 0 of the struct's shadow in D) and of the float member `w` (byte
// 24) with atomic adds: every thread updates the same adjoint. The host's
// augmented launch clears those members in its copy of the shadow struct
// (the caller's shadow holds their adjoints so far), and its reverse adds
// what the reverse kernel summed into the caller's shadow struct.
// The size kernel describes the struct's pointers as the first level of
// the kernel's pointer graph below its parameter 0 (runtime/lib/
// gpu_launch_graph.c walks what they point to): two nodes, 1 << 63 | 1 <<
// 62 (parent a parameter) | read << 49 | written << 48 | offset: x at byte
// 8 (read), y at byte 16 (written).
// Numerically: tests/gpu/gpu_struct_floats.cu on the grid emulation.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o %t/d0.ll -Wno-unknown-cuda-version
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S -emit-llvm %s -o %t/d2.ll -Wno-unknown-cuda-version
// RUN: FileCheck %s --check-prefix=DEV < %t/d0.ll
// RUN: FileCheck %s --check-prefix=DEV < %t/d2.ll
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S %s -o %t/d0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S %s -o %t/d2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/d0.ptx -o %t/d0.cubin
// RUN: %ptxas -arch=sm_90 %t/d2.ptx -o %t/d2.cubin
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-host-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=HOST

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
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    p.y[i] = p.a * p.x[i] * p.x[i] + p.w * p.x[i];
}

double loss(const Params *p) {
  poly<<<1, 32>>>(*p);
  return p->y[0];
}

void grad(const Params *p, Params *dp) {
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp);
}

// DEV-NOT: warning:
// DEV-LABEL: define {{.*}}void @__adcc_fwd__Z4poly6Params(
// DEV-LABEL: define {{.*}}void @__adcc_size__Z4poly6Params(
// DEV: store i64 2, ptr
// DEV: store i64 -4611123068473966584, ptr
// DEV: store i64 -4611404543450677232, ptr
// DEV-LABEL: define {{.*}}void @__adcc_rev__Z4poly6Params(
// DEV-DAG: atomicrmw fadd ptr %{{[0-9]+}}, float %{{[0-9]+}} monotonic
// DEV-DAG: atomicrmw fadd ptr %{{[0-9]+}}, double %{{[0-9]+}} monotonic
// DEV: ret void

// HOST-LABEL: define internal ptr @_Z19__device_stub__poly6Params.adcc_aug(
// HOST: call void @llvm.memcpy
// HOST: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}[[D:%[0-9]+]], ptr {{.*}}%1, i64 32
// HOST: store double 0.000000e+00, ptr [[D]]
// HOST: [[W:%[0-9]+]] = getelementptr inbounds nuw i8, ptr [[D]], i64 24
// HOST: store float 0.000000e+00, ptr [[W]]
// HOST: call ptr @adcc_gpu_launch_augmented(
// HOST-LABEL: define internal void @_Z19__device_stub__poly6Params.adcc_rev(
// HOST: call void @adcc_gpu_launch_reverse(
// HOST: [[A:%[0-9]+]] = load double, ptr
// HOST: [[OLD:%[0-9]+]] = load double, ptr %1
// HOST: [[SUM:%[0-9]+]] = fadd double [[A]], [[OLD]]
// HOST: store double [[SUM]], ptr %1
// HOST: [[TO:%[0-9]+]] = getelementptr inbounds nuw i8, ptr %1, i64 24
// HOST: fadd float
// HOST: store float {{.*}}, ptr [[TO]]
