// The GPU numerical test (tests/gpu/gpu_gradients.cu, whose functions the
// host e2e test gpu_host_derivatives.c checks from the same source):
// its device code is accepted by ptxas for sm_80 and sm_90 at -O0 and
// -O2, calls no adcc runtime function, and adds the adjoints of the
// coefficients every thread reads atomically. Its neighbour exchange
// through shared memory (__syncthreads() in reverse mode): the reverse
// sweep runs a mirror of the barrier between the adjoint updates of the
// code after it (atomic adds into the shared shadow another thread reads)
// and those of the code before it, which read the shadow.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %S/../../gpu/gpu_gradients.cu -o %t/o0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %S/../../gpu/gpu_gradients.cu -o %t/o2.ptx -Wno-unknown-cuda-version -Rpass=adcc 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ptxas -arch=sm_80 %t/o0.ptx -o %t/o0.cubin 2>&1 | count 0
// RUN: %ptxas -arch=sm_90 %t/o2.ptx -o %t/o2.cubin 2>&1 | count 0
// RUN: FileCheck %s < %t/o2.ptx
// RUN: FileCheck %s < %t/o0.ptx
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm %S/../../gpu/gpu_gradients.cu -o - -Wno-unknown-cuda-version | FileCheck %s --check-prefix=BARRIER
// The other GPU numerical test, gpu_warps.cu (warp shuffles, a
// __shared__ array in reverse mode, lgamma/tgamma), whose numbers
// warp-emulated.cu checks on a host model of a warp: accepted by ptxas,
// no runtime function (adcc_tape_push, ...; the module's own digamma is
// adcc_$_device_$_digamma in PTX).
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S %S/../../gpu/gpu_warps.cu -o %t/w0.ptx -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S %S/../../gpu/gpu_warps.cu -o %t/w2.ptx -Wno-unknown-cuda-version
// RUN: %ptxas -arch=sm_80 %t/w0.ptx -o %t/w0.cubin 2>&1 | count 0
// RUN: %ptxas -arch=sm_90 %t/w2.ptx -o %t/w2.cubin 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=WARPS < %t/w0.ptx
// RUN: FileCheck %s --check-prefix=WARPS < %t/w2.ptx
// WARPS-NOT: adcc_{{[a-z]}}
// WARPS: shfl.sync
// WARPS-NOT: adcc_{{[a-z]}}
// REMARK: reverse mode of 'energy(double const*, double const*)' in device code: adjoint updates of memory: 4 atomic adds (memory other threads may update: 4)
// CHECK-NOT: adcc_
// CHECK: atom{{(.global)?}}.add.f64
// CHECK-NOT: adcc_
// BARRIER-LABEL: define {{.*}} @_Z9exchangesPKdPd(
// BARRIER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// The augmented sweep: s[t] = x * x, the barrier, s[t + 1] read.
// BARRIER: store double
// BARRIER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// BARRIER: load double
// The reverse sweep: the adjoint of s[t + 1] added atomically, the mirror,
// then the adjoint of s[t] read (plain: the thread's own slot).
// BARRIER: atomicrmw fadd ptr {{.*}} monotonic
// BARRIER-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// BARRIER-NEXT: load double
// BARRIER-NEXT: store double 0.000000e+00
// BARRIER-NOT: atomicrmw
// BARRIER: ret void
