// CUDA's own launch syntax in differentiated host code (docs/gpu.md,
// "Kernel launches with <<<...>>>"): the device code gets the derivative
// kernels of the launched kernel (tangent, tape-slot size, augmented,
// reverse), which ptxas accepts at -O0 and -O2; the reverse kernel adds the
// scalar's adjoint atomically and x's plainly (indexed by the global thread
// id); the augmented kernel raises the counter of slots too small. The
// host code's gradient pushes the configuration, runs the augmented
// kernel's launch (its record returned), then the reverse one with that
// record; its tangent runs the tangent kernel's launch; the rules call the
// runtime; with a device binary, the derivative kernels are registered
// next to the kernel.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S %s -o %t/d80.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S %s -o %t/d90.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/d80.ptx -o %t/d80.cubin
// RUN: %ptxas -arch=sm_90 %t/d90.ptx -o %t/d90.cubin
// RUN: FileCheck %s --check-prefixes=PTX,PTX2 < %t/d90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/d80.ptx
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=HOST
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=HOST0
// RUN: echo fatbin > %t/fake.fatbin
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -Xclang -fcuda-include-gpubinary -Xclang %t/fake.fatbin -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=REG

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup;

__global__ void scale(double a, const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * sin(x[i]);
}

double loss(double a, const double *x, double *y) {
  scale<<<4, 64>>>(a, x, y, 256);
  cudaDeviceSynchronize();
  return y[0] * y[1];
}

double grad(double a, const double *x, double *dx, double *y, double *dy) {
  return __enzyme_autodiff((void *)loss, a, enzyme_dup, x, dx, enzyme_dup, y,
                           dy);
}

double tangent(double a, const double *x, const double *tx, double *y,
               double *ty) {
  return __enzyme_fwddiff((void *)loss, a, 1.0, enzyme_dup, x, tx, enzyme_dup,
                          y, ty);
}

// PTX: .visible .entry _Z5scaledPKdPdi(
// PTX: .visible .entry __adcc_fwd__Z5scaledPKdPdi(
// PTX: .visible .entry __adcc_size__Z5scaledPKdPdi(
// PTX: .visible .entry __adcc_aug__Z5scaledPKdPdi(
// PTX: atom{{(.global)?}}.max.u64
// PTX: .visible .entry __adcc_rev__Z5scaledPKdPdi(
// PTX-NOT: .entry
// PTX: atom{{(.global)?}}.add.f64
// (-O2: x's adjoint plain, at the thread's own index; -O0: atomic too)
// PTX2-NOT: atom{{.*}}.add.f64
// PTX-NOT: .entry
// PTX: }

// HOST-LABEL: define {{.*}} @_Z4graddPKdPdS1_S1_(
// HOST: call i32 @__cudaPushCallConfiguration(i64 4294967300, i32 1, i64 4294967360, i32 1,
// HOST: %[[REC:[0-9]+]] = tail call ptr @_Z20__device_stub__scaledPKdPdi.adcc_aug(double %0, ptr %1, ptr %2, ptr %3, ptr %4, i32 256)
// HOST: call double @_Z20__device_stub__scaledPKdPdi.adcc_rev(double %0, ptr %1, ptr %2, ptr {{.*}}%3, ptr {{.*}}%4, i32 256, ptr %[[REC]])
// HOST-LABEL: define {{.*}} @_Z7tangentdPKdS0_PdS1_(
// HOST: call i32 @__cudaPushCallConfiguration(
// HOST: call void @_Z20__device_stub__scaledPKdPdi.adcc_fwd(double %0, double 1.000000e+00, ptr %1, ptr %2, ptr %3, ptr %4, i32 256)
// HOST-NOT: call {{.*}}@_Z20__device_stub__scaledPKdPdi(
// HOST-LABEL: define internal void @_Z20__device_stub__scaledPKdPdi.adcc_fwd(
// HOST: call void @adcc_gpu_launch_forward(ptr {{.*}}@__adcc_launch._Z5scaledPKdPdi,
// HOST-LABEL: define internal ptr @_Z20__device_stub__scaledPKdPdi.adcc_aug(
// HOST: call ptr @adcc_gpu_launch_augmented(ptr {{.*}}@__adcc_launch._Z5scaledPKdPdi,
// HOST-LABEL: define internal double @_Z20__device_stub__scaledPKdPdi.adcc_rev(
// HOST: call void @adcc_gpu_launch_reverse(ptr {{.*}}@__adcc_launch._Z5scaledPKdPdi, ptr %{{[0-9]+}},

// (-O0: the stub's call in the primal; the rules called in the derivatives.)
// HOST0: define {{.*}} @_Z4lossdPKdPd(
// HOST0: call i32 @__cudaPushCallConfiguration(
// HOST0: call void @_Z20__device_stub__scaledPKdPdi(
// HOST0-DAG: call ptr @_Z20__device_stub__scaledPKdPdi.adcc_aug(
// HOST0-DAG: call double @_Z20__device_stub__scaledPKdPdi.adcc_rev(
// HOST0-DAG: call void @_Z20__device_stub__scaledPKdPdi.adcc_fwd(

// REG: @[[FWD:__adcc_kernel_name[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"__adcc_fwd__Z5scaledPKdPdi\00"
// REG-DAG: call i32 @__cudaRegisterFunction(ptr %{{[0-9]+}}, ptr {{.*}}@_Z20__device_stub__scaledPKdPdi,
// REG-DAG: call i32 @__cudaRegisterFunction(ptr %{{[0-9]+}}, ptr {{.*}}@__adcc_handle___adcc_fwd__Z5scaledPKdPdi, ptr {{.*}}@[[FWD]], ptr {{.*}}@[[FWD]],
// REG-DAG: call i32 @__cudaRegisterFunction(ptr %{{[0-9]+}}, ptr {{.*}}@__adcc_handle___adcc_aug__Z5scaledPKdPdi,
// REG-DAG: call i32 @__cudaRegisterFunction(ptr %{{[0-9]+}}, ptr {{.*}}@__adcc_handle___adcc_rev__Z5scaledPKdPdi,
// REG-DAG: call i32 @__cudaRegisterFunction(ptr %{{[0-9]+}}, ptr {{.*}}@__adcc_handle___adcc_size__Z5scaledPKdPdi,
