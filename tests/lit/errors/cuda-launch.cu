// CUDA launches in differentiated host code that adcc does not
// differentiate are located errors, never a derivative that leaves out the
// kernel: <<<...>>> of a kernel with a struct parameter by value whose
// float the host passes in an integer's bits (`{float; int}`, 8 bytes, is
// one i64 on x86-64: its tangent and adjoint would be lost; structs of
// pointers, integers, floats and doubles are differentiated otherwise,
// tests/gpu/gpu_struct_floats.cu), at -O0 (the stub's call) and -O2; a cooperative launch of a kernel chosen at run time (one naming
// the kernel is differentiated: tests/gpu/gpu_launches.cu -DCOOPERATIVE).
// In the device compile, a launched kernel
// that cannot be differentiated (inline assembly) gets no derivative
// kernels and a warning at the kernel, and the file still compiles.
// REQUIRES: cuda
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O0 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=STRUCT
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=STRUCT
// RUN: %expect-exit 1 %adcc++ -std=c++17 -O2 -DCOOPERATIVE -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-host-only -S %s -o /dev/null -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=COOP
// RUN: %adcc++ -std=c++17 -O2 -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -S %s -o %t.ptx -Wno-unknown-cuda-version 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
#include <adcc.hpp>

struct Params {
  float a;
  int n;
};

__global__ void bystruct(Params p, double *y) { y[threadIdx.x] *= p.a; }
__global__ void scale(double a, double *y) { y[threadIdx.x] *= a; }
__global__ void twice(double a, double *y) { y[threadIdx.x] *= 2 * a; }

// WARN: cuda-launch.cu:[[@LINE+1]]:1: warning: the kernel 'assembled(double*)', launched with <<<...>>> in a file that asks for derivatives, has no derivative kernels: {{.*}}cuda-launch.cu:[[@LINE+3]]:3: cannot differentiate 'assembled(double*)' in device code: inline assembly is not supported; a derivative of its launch stops the program with a message
__global__ void assembled(double *y) {
  double v;
  asm("mov.f64 %0, %1;" : "=d"(v) : "d"(y[threadIdx.x]));
  y[threadIdx.x] = v * v;
}

double run(double *y) {
  assembled<<<1, 32>>>(y); // (not differentiated)
  return y[0];
}

double loss(double a, double *y) {
#ifdef COOPERATIVE
  void *args[] = {&a, &y};
  // (A kernel chosen at run time: no kernel named.)
  const void *k = a > 0 ? (const void *)scale : (const void *)twice;
  // COOP: cuda-launch.cu:[[@LINE+1]]:3: error: cannot differentiate 'loss(double, double*)' in reverse mode: a CUDA kernel launch of 'cudaLaunchCooperativeKernel' in differentiated code is not differentiated (its derivative would leave out the kernel); launch the kernel with <<<...>>>, cudaLaunchKernel or hipLaunchKernel (or their cooperative forms) naming the kernel, or with adcc::launch
  cudaLaunchCooperativeKernel(k, dim3(1), dim3(32), args, 0, nullptr);
#else
  // STRUCT: cuda-launch.cu:[[@LINE+1]]:3: error: cannot differentiate 'loss(double, double*)' in reverse mode: the kernel launch (<<<...>>>) of 'bystruct(Params, double*)' is differentiated only where every parameter of the kernel is a number, a pointer, or a struct of pointers, integers, floats and doubles passed by value whose floating-point members the host does not pass in an integer's bits (a struct of up to 16 bytes that mixes a float with an integer or another float in one 8-byte half); pass such a struct by pointer, or launch the kernel with adcc::launch
  bystruct<<<1, 32>>>(Params{float(a), 32}, y);
#endif
  return y[0] * a;
}

double grad(double a, double *y, double *dy) {
  auto [da] = adcc::gradient(loss, adcc::Active(a), adcc::Duplicated(y, dy));
  return da;
}

// (The kernel itself, but no derivative kernels of it. bystruct has
// them: the device takes its struct whole; the host's launch is the error.)
// PTX-DAG: .entry _Z9assembledPd(
// PTX-DAG: .entry _Z8bystruct6ParamsPd(
// PTX-DAG: .entry __adcc_rev__Z8bystruct6ParamsPd(
// PTX-NOT: __adcc_{{fwd|aug|rev|size}}__Z9assembledPd
