// Two pointer parameters may point into one array (k(x, x + 1): thread i's
// y[i] is thread i + 1's x[i + 1]): an update of the thread's own element
// is plain only where no other array the function reads may overlap it,
// else thread i and i + 1 add into one adjoint at once (docs/gpu.md,
// "Atomic adjoint updates"). A restrict parameter overlaps no other where
// the function writes through it (C's promise; restrict parameters that
// are only read may point into one array, pair_restrict(x, x + 1, s): their
// updates are atomic, as in OpenMP regions on the CPU, lit
// reverse/openmp-updates.c; plain before 2026-12-06); a write through another parameter
// does not count (reaching what another thread reads would be a data race
// of the program). The same rule for device functions differentiated in
// device code and for launched kernels; -O0 keeps every update atomic.
// REQUIRES: cuda
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version -Rpass=adcc 2>&1 | FileCheck %s
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o /dev/null -Wno-unknown-cuda-version -Rpass=adcc 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -g -S %s -o /dev/null -Wno-unknown-cuda-version -Rpass=adcc 2>&1 | FileCheck %s --check-prefix=DBG
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR0
extern __device__ void __enzyme_autodiff(void *, ...);
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

// Device functions, differentiated in device code.
__device__ void pair(const double *x, const double *y, double *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = x[i] * y[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of 'pair(double const*, double const*, double*)' in device code: adjoint updates of memory: 2 atomic adds (the thread's element of an array another pointer parameter may overlap: 2), 0 plain [-Rpass=adcc]
// O0-DAG: overlapping-parameters.cu:[[#@LINE-5]]:1: remark: reverse mode of 'pair(double const*, double const*, double*)' in device code: adjoint updates of memory: 2 atomic adds (memory other threads may update: 2), 0 plain [-Rpass=adcc]

__device__ void pair_restrict(const double *__restrict__ x,
                              const double *__restrict__ y, double *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = x[i] * y[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of 'pair_restrict(double const*, double const*, double*)' in device code: adjoint updates of memory: 2 atomic adds (the thread's element of an array another pointer parameter may overlap: 2), 0 plain [-Rpass=adcc]

// (Nor does one of the two.)
__device__ void pair_one_restrict(const double *__restrict__ x,
                                  const double *y, double *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = x[i] * y[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of 'pair_one_restrict(double const*, double const*, double*)' in device code: adjoint updates of memory: 2 atomic adds (the thread's element of an array another pointer parameter may overlap: 2), 0 plain [-Rpass=adcc]

// Written through and restrict: no other parameter reaches x, whose
// updates, and y's, stay plain.
__device__ void scale_restrict(double *__restrict__ x, const double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] * y[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of 'scale_restrict(double*, double const*)' in device code: adjoint updates of memory: 0 atomic adds, 2 plain (indexed by the global thread id: 2) [-Rpass=adcc]

// A coefficient read through another parameter: c may point into x.
__device__ void scaled(const double *c, const double *x, double *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = c[0] * x[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of 'scaled(double const*, double const*, double*)' in device code: adjoint updates of memory: 2 atomic adds (memory other threads may update: 1, the thread's element of an array another pointer parameter may overlap: 1), 0 plain [-Rpass=adcc]

// Only written through s: x's own element stays plain.
__device__ void square(const double *x, double *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = x[i] * x[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of 'square(double const*, double*)' in device code: adjoint updates of memory: 0 atomic adds, 1 plain (indexed by the global thread id: 1) [-Rpass=adcc]

__global__ void grad(const double *x, double *dx, double *s, double *ds) {
  __enzyme_autodiff((void *)pair, x, dx, x + 1, dx + 1, s, ds);
  __enzyme_autodiff((void *)pair_restrict, x, dx, s, ds, s + 256, ds + 256);
  __enzyme_autodiff((void *)pair_one_restrict, x, dx, s, ds, s + 256,
                    ds + 256);
  __enzyme_autodiff((void *)scaled, x, dx, x, dx, s, ds);
  __enzyme_autodiff((void *)square, x, dx, s, ds);
  __enzyme_autodiff((void *)scale_restrict, s, ds, x, dx);
}

// Launched kernels: the reverse kernel of k(x, x + 1, s).
__global__ void launched_pair(const double *x, const double *y, double *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = x[i] * y[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of '__adcc_body__Z13launched_pairPKdS0_Pd' in device code: adjoint updates of memory: 2 atomic adds (the thread's element of an array another pointer parameter may overlap: 2), 0 plain [-Rpass=adcc]

__global__ void launched_restrict(const double *__restrict__ x,
                                  const double *__restrict__ y, double *s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[i] = x[i] * y[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of '__adcc_body__Z17launched_restrictPKdS0_Pd' in device code: adjoint updates of memory: 2 atomic adds (the thread's element of an array another pointer parameter may overlap: 2), 0 plain [-Rpass=adcc]

__global__ void launched_scale(double *__restrict__ x, const double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] * y[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of '__adcc_body__Z14launched_scalePdPKd' in device code: adjoint updates of memory: 0 atomic adds, 2 plain (indexed by the global thread id: 2) [-Rpass=adcc]

// __restrict__ on some arrays but not all: the second remark names each
// array's updates. x (restrict, only read) may still overlap z (z = x + 1
// below is valid C), c is read by every thread: all atomic.
__global__ void launched_partial(const double *__restrict__ x, const double *c,
                                 double *__restrict__ y, const double *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] * c[0] + z[i] * z[i];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of '__adcc_body__Z16launched_partialPKdS0_PdS0_' in device code: adjoint updates by array: parameter 4: atomic; parameter 2: atomic; parameter 1: atomic [-Rpass=adcc]

// y restrict and written through: apart from x and c, its own element
// plain; x's element may overlap c (neither restrict): atomic.
__global__ void launched_written(double *__restrict__ y, const double *x,
                                 const double *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = y[i] * x[i] + c[0];
}
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-4]]:1: remark: reverse mode of '__adcc_body__Z16launched_writtenPdPKdS1_' in device code: adjoint updates of memory: 2 atomic adds (memory other threads may update: 1, the thread's element of an array another pointer parameter may overlap: 1), 1 plain (indexed by the global thread id: 1) [-Rpass=adcc]
// CHECK-DAG: overlapping-parameters.cu:[[#@LINE-5]]:1: remark: reverse mode of '__adcc_body__Z16launched_writtenPdPKdS1_' in device code: adjoint updates by array: parameter 3: atomic; parameter 2: atomic; parameter 1: plain [-Rpass=adcc]
// (With -g, the parameters' names; at -O0 every update is atomic.)
// DBG-DAG: overlapping-parameters.cu:[[#@LINE-7]]:1: remark: reverse mode of '__adcc_body__Z16launched_writtenPdPKdS1_' in device code: adjoint updates by array: parameter 3 (c): atomic; parameter 2 (x): atomic; parameter 1 (y): atomic [-Rpass=adcc]

// A kernel's shared memory is its own: the parameter read beside it does
// not make the thread's element of the tile atomic. (x's updates are
// atomic for another reason: a kernel with a barrier is differentiated as
// its item, which reads x's address from the arguments in device memory.)
__global__ void launched_tile(const double *x, double *s) {
  __shared__ double tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = x[i] * x[i];
  __syncthreads();
  s[i] = tile[threadIdx.x] * x[i];
}
// CHECK-DAG: remark: reverse mode of '__adcc_item__Z13launched_tilePKdPd' in device code: adjoint updates of memory: 2 atomic adds (memory other threads may update: 2), 1 plain (shared memory indexed by the thread's index in its block: 1) [-Rpass=adcc]

double loss(const double *x, double *s) {
  launched_pair<<<4, 64>>>(x, x + 1, s);
  launched_restrict<<<4, 64>>>(x, s + 256, s + 512);
  launched_tile<<<4, 64>>>(x, s + 768);
  launched_scale<<<4, 64>>>(s + 1024, x);
  launched_partial<<<4, 64>>>(x, x + 3, s + 1280, x + 1);
  launched_written<<<4, 64>>>(s + 1536, x, x + 5);
  cudaDeviceSynchronize();
  return s[0] + s[256] + s[768];
}

void gradient(const double *x, double *dx, double *s, double *ds) {
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, s, ds);
}

// IR-LABEL: define {{.*}} @__adcc_rev__Z13launched_pairPKdS0_Pd(
// IR-COUNT-2: atomicrmw fadd ptr {{.*}} monotonic
// IR-NOT: atomicrmw
// IR: ret void
// IR-LABEL: define {{.*}} @__adcc_rev__Z17launched_restrictPKdS0_Pd(
// IR-COUNT-2: atomicrmw fadd ptr {{.*}} monotonic
// IR-NOT: atomicrmw
// IR: ret void
// IR-LABEL: define {{.*}} @__adcc_rev__Z14launched_scalePdPKd(
// IR-NOT: atomicrmw
// IR: ret void
// IR0-LABEL: define {{.*}} @__adcc_rev__Z17launched_restrictPKdS0_Pd(
// IR0: atomicrmw fadd
// IR0: ret void
