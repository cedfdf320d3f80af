// Warp shuffles of doubles and floats (__shfl_sync, __shfl_up_sync,
// __shfl_down_sync, __shfl_xor_sync of CUDA's header) have rules. Forward
// mode shuffles the tangent the same way. Reverse mode sends the adjoint
// back to the lane the value came from: the inverse shuffle (down <-> up
// with the same delta, xor its own) over the whole warp, of the adjoints
// of the lanes whose shuffle read another lane (the primal's predicate),
// plus the lane's own adjoint where its shuffle kept its own value; an
// idx shuffle gathers in 32 rounds. No atomic adds, no runtime call. (The
// numbers: warp-emulated.cu.) A shuffle of a double's bits as integers is
// a located error. The raw NVVM builtins of a float take the same rules
// (their c operand given), at -O0 and -O2.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/o2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/o0.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/o2.ptx
// RUN: %expect-exit 1 %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o /dev/null -Wno-unknown-cuda-version -DBITS 2>&1 | FileCheck %s --check-prefix=BITS
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %s -o - -Wno-unknown-cuda-version -DRAW | FileCheck %s --check-prefix=RAW
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S -emit-llvm %s -o - -Wno-unknown-cuda-version -DRAW | FileCheck %s --check-prefix=RAW
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %s -o %t/raw0.ptx -Wno-unknown-cuda-version -DRAW
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %s -o %t/raw2.ptx -Wno-unknown-cuda-version -DRAW
// RUN: %ptxas -arch=sm_80 %t/raw0.ptx -o %t/raw0.cubin
// RUN: %ptxas -arch=sm_90 %t/raw2.ptx -o %t/raw2.cubin
//
// The tangent goes down as the value does: two halves each.
// IR-LABEL: define {{.*}} @_Z8tangentsPKdPd(
// IR-COUNT-4: call {{.*}}i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %{{[0-9]+}}, i32 16, i32 31)
// IR-NOT: atomicrmw
// IR: ret void
//
// Reverse of down by 16: the primal's predicate, the adjoint sent up by 16
// over the whole warp (c = 0), the lane's own adjoint where it kept its
// value.
// IR-LABEL: define {{.*}} @_Z9gradientsPKdPd(
// IR: call {{.*}}{ i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 -1, i32 0, i32 1, i32 31)
// IR: call {{.*}}{ i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 -1, i32 %{{[0-9]+}}, i32 1, i32 0)
// IR: call {{.*}}{ i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 -1, i32 %{{[0-9]+}}, i32 16, i32 0)
// IR-NOT: atomicrmw
// IR: ret void
//
// Reverse of xor by 16 in a float: the adjoint exchanged back by xor.
// IR-LABEL: define {{.*}} @_Z9butterflyPKfPf(
// IR: call {{.*}}{ float, i1 } @llvm.nvvm.shfl.sync.bfly.f32p(i32 -1, float %{{[0-9]+}}, i32 16, i32 31)
// IR-NOT: atomicrmw
// IR: ret void
//
// Reverse of a broadcast from lane 5: 32 rounds of idx shuffles of the
// adjoint and of its lane's source.
// IR-LABEL: define {{.*}} @_Z10broadcastsPKdPd(
// IR: call {{.*}}{ i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32 -1, i32 0, i32 5, i32 31)
// IR: call {{.*}}{ i32, i1 } @llvm.nvvm.shfl.sync.idx.i32p(i32 -1, i32 %{{[0-9]+}}, i32 {{.*}}, i32 31)
// IR-NOT: atomicrmw
// IR-NOT: call {{.*}}@adcc_
// IR: ret void
//
// PTX-NOT: adcc_
// PTX-NOT: atom.
// PTX: shfl.sync.up.b32
//
// Reverse of the raw down by 1 (c = 31): the predicate, the adjoint sent
// up by 1 over the whole warp; the function that held the intrinsic for
// the AD pass is gone.
// RAW-NOT: define {{.*}}@adcc.nvvm.shfl
// RAW-LABEL: define {{.*}} @_Z13raw_gradientsPKfPf(
// RAW: call { i32, i1 } @llvm.nvvm.shfl.sync.down.i32p(i32 -1, i32 0, i32 1, i32 31)
// RAW: call { float, i1 } @llvm.nvvm.shfl.sync.up.f32p(i32 -1, float %{{[0-9]+}}, i32 1, i32 0)
// RAW-NOT: call {{.*}}@adcc
// RAW: ret void
// RAW-NOT: define {{.*}}@adcc.nvvm.shfl
extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ float __enzyme_autodiff_f(void *, ...) asm("__enzyme_autodiff");

__device__ double tree(double x) {
  double v = x * x;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}

__device__ float exchange(float x) {
  float v = x * x;
  return v + __shfl_xor_sync(0xffffffffu, v, 16) * x;
}

__device__ double broadcast(double x) {
  return __shfl_sync(0xffffffffu, x * x, 5) * x;
}

__global__ void tangents(const double *x, double *t) {
  t[threadIdx.x] = __enzyme_fwddiff((void *)tree, x[threadIdx.x], 1.0);
}

__global__ void gradients(const double *x, double *g) {
  g[threadIdx.x] = __enzyme_autodiff((void *)tree, x[threadIdx.x]);
}

__global__ void butterfly(const float *x, float *g) {
  g[threadIdx.x] = __enzyme_autodiff_f((void *)exchange, x[threadIdx.x]);
}

__global__ void broadcasts(const double *x, double *g) {
  g[threadIdx.x] = __enzyme_autodiff((void *)broadcast, x[threadIdx.x]);
}

#ifdef BITS
__device__ double bits(double x) {
  long long b = __double_as_longlong(x * x);
  // (At the program's line, not in CUDA's header.)
  // BITS: warp-shuffles.cu:[[@LINE+1]]:7: error: cannot differentiate 'bits(double)' in device code: a warp shuffle of the bits of a floating-point value
  b = __shfl_down_sync(0xffffffffu, b, 1);
  return __longlong_as_double(b) * x;
}
__global__ void bit_gradients(const double *x, double *g) {
  g[threadIdx.x] = __enzyme_autodiff((void *)bits, x[threadIdx.x]);
}
#endif

#ifdef RAW
__device__ float raw(float x) {
  return __nvvm_shfl_sync_down_f32(0xffffffffu, x * x, 1, 31);
}
__global__ void raw_gradients(const float *x, float *g) {
  g[threadIdx.x] = __enzyme_autodiff_f((void *)raw, x[threadIdx.x]);
}
#endif
