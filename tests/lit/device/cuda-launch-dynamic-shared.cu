// A launched kernel with dynamic shared memory (`extern __shared__`, the
// size the third <<<g, b, bytes>>> argument) gets derivative kernels: each
// finds the shadow in the second half of its dynamic shared memory
// (%dynamic_smem_size halved: the runtime launches them with twice the
// bytes); the reverse kernel zeroes that half, and the shadow of the static
// __shared__ array, with the block's threads, then meets at a barrier,
// before its reverse sweep (shared memory does not outlive the augmented
// kernel). ptxas accepts them at -O0 and -O2. (Numerically:
// tests/gpu/gpu_dynamic_shared.cu on the grid emulation.)
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -S %s -o %t/d80.ptx -Wno-unknown-cuda-version 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S %s -o %t/d90.ptx -Wno-unknown-cuda-version 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: %ptxas -arch=sm_80 %t/d80.ptx -o %t/d80.cubin
// RUN: %ptxas -arch=sm_90 %t/d90.ptx -o %t/d90.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t/d90.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/d80.ptx
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S -emit-llvm %s -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=IR

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;

// QUIET-NOT: warning
__global__ void tile(const double *x, double *y) {
  extern __shared__ double s[];
  __shared__ double w[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = x[i] * x[i];
  w[t] = x[i];
  __syncthreads();
  y[i] = s[t] * s[(t + 1) % 64] * w[(t + 3) % 64];
}

double loss(const double *x, double *y) {
  tile<<<4, 64, 64 * sizeof(double)>>>(x, y);
  return y[0];
}

void grad(const double *x, double *dx, double *y, double *dy) {
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_dup, y, dy);
}

// PTX: .extern .shared .align {{[0-9]+}} .b8 s[];
// PTX-LABEL: .entry __adcc_fwd__Z4tilePKdPd(
// PTX: %dynamic_smem_size
// PTX-LABEL: .entry __adcc_size__Z4tilePKdPd(
// PTX-LABEL: .entry __adcc_aug__Z4tilePKdPd(
// PTX: %dynamic_smem_size
// PTX-LABEL: .entry __adcc_rev__Z4tilePKdPd(
// PTX: %dynamic_smem_size
// PTX: st.shared.{{u8|b8}}
// PTX: bar.sync 0;

// IR-LABEL: define {{.*}} @__adcc_rev__Z4tilePKdPd(
// (the static array's shadow zeroed first, by words, then a barrier)
// IR: store i64 0, ptr addrspace(3)
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// (the dynamic memory's second half: the launch's bytes halved)
// IR: %[[BYTES:[0-9]+]] = tail call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
// IR: %[[HALF:[0-9]+]] = lshr i32 %[[BYTES]], 1
// IR: %[[SHADOW:[0-9]+]] = getelementptr inbounds {{(nuw )?}}i8, ptr addrspace(3) @s, i{{32|64}} %{{[0-9]+}}
// IR: getelementptr inbounds {{(nuw )?}}i8, ptr addrspace(3) %[[SHADOW]]
// IR-NEXT: store i8 0, ptr addrspace(3)
// IR: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// IR: ret void
