// CUDA's own launch syntax in differentiated host code is not
// differentiated: a located error at the launch that names adcc::launch,
// at -O0 (the call of the launch stub) and -O2 (the stub inlined: its call
// of cudaLaunchKernel), never a derivative that leaves out the kernel.
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=O2
#include <adcc.hpp>

__global__ void scale(double a, double *y) { y[threadIdx.x] *= a; }

double loss(double a, double *y) {
  // O0: cuda-launch.cu:[[@LINE+3]]:3: error: cannot differentiate 'loss(double, double*)' in reverse mode: a kernel launch (<<<...>>>) of 'scale(double, double*)' in differentiated code is not differentiated (its derivative would leave out the kernel); launch the kernel with adcc::launch(adcc::cuda or adcc::hip, kernel, range, workgroup, args...) of <adcc/kernels.hpp>
  // O2: cuda-launch.cu:[[@LINE+2]]:3: error: cannot differentiate 'loss(double, double*)' in reverse mode: a CUDA kernel launch of 'cudaLaunchKernel' in differentiated code is not differentiated
  // O2-SAME: adcc::launch(adcc::cuda or adcc::hip
  scale<<<1, 32>>>(a, y);
  return y[0] * a;
}

double grad(double a, double *y, double *dy) {
  auto [da] = adcc::gradient(loss, adcc::Active(a), adcc::Duplicated(y, dy));
  return da;
}
