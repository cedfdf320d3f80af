// Derivatives of warp shuffles, of a __shared__ array in reverse mode and
// of lgamma and tgamma (the device's digamma) in reverse mode,
// checked numerically without a GPU: the device IR that adcc makes
// (-O0 and -O2) of tests/gpu/warp_functions.h is rewritten for the host
// (tests/gpu/emulation/nvptx_host_ir.py) and run on a host model of one
// warp (tests/gpu/emulation/warp_emulation.h: 32 threads, PTX's shuffle
// semantics, __syncthreads() a barrier). For each function, with y_l = f(x_l) on
// lane l and L = sum_l y_l: the gradient kernel's dL/dx_j against central
// differences of the value kernel, and against the tangent kernel; the
// tangents of two directions at once (enzyme_width 2) against each alone,
// and the gradients of two weighted sums at once against the tangents
// (tests/gpu/warp_check.h). On a GPU: tests/gpu/gpu_warps.cu.
// REQUIRES: cuda
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_80 --cuda-device-only -O0 -S -emit-llvm -I%S/../../gpu %s -o %t/o0.ll -Wno-unknown-cuda-version
// RUN: %adcc++ -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 --cuda-device-only -O2 -S -emit-llvm -I%S/../../gpu %s -o %t/o2.ll -Wno-unknown-cuda-version
// RUN: %python %S/../../gpu/emulation/nvptx_host_ir.py %t/o0.ll %host-triple > %t/h0.ll
// RUN: %python %S/../../gpu/emulation/nvptx_host_ir.py %t/o2.ll %host-triple > %t/h2.ll
// RUN: %clang -O0 -c %t/h0.ll -o %t/h0.o
// RUN: %clang -O0 -c %t/h2.ll -o %t/h2.o
// RUN: %clang++ -std=c++20 -O1 -DHOST_HARNESS -I%S/../../gpu/emulation -I%S/../../gpu -x c++ %s -x none %t/h0.o -o %t/run0 -lpthread
// RUN: %clang++ -std=c++20 -O1 -DHOST_HARNESS -I%S/../../gpu/emulation -I%S/../../gpu -x c++ %s -x none %t/h2.o -o %t/run2 -lpthread
// RUN: %t/run0 | FileCheck %s
// RUN: %t/run2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: down_tree: ok
// CHECK: butterfly: ok
// CHECK: up_scan: ok
// CHECK: up_kept: ok
// CHECK: segments: ok
// CHECK: broadcast: ok
// CHECK: gather: ok
// CHECK: float_xor: ok
// CHECK: raw_float: ok
// CHECK: shared_ring: ok
// CHECK: log_gamma: ok
// CHECK: gamma: ok
// CHECK: down_tree: width 2 ok
// CHECK: down_tree: reverse width 2 ok
// CHECK: butterfly: width 2 ok
// CHECK: butterfly: reverse width 2 ok
// CHECK: up_scan: width 2 ok
// CHECK: up_scan: reverse width 2 ok
// CHECK: up_kept: width 2 ok
// CHECK: up_kept: reverse width 2 ok
// CHECK: segments: width 2 ok
// CHECK: segments: reverse width 2 ok
// CHECK: broadcast: width 2 ok
// CHECK: broadcast: reverse width 2 ok
// CHECK: gather: width 2 ok
// CHECK: gather: reverse width 2 ok
// CHECK: float_xor: width 2 ok
// CHECK: float_xor: reverse width 2 ok
// CHECK: raw_float: width 2 ok
// CHECK: raw_float: reverse width 2 ok
// CHECK: shared_ring: width 2 ok
// CHECK: shared_ring: reverse width 2 ok
// CHECK: log_gamma: width 2 ok
// CHECK: log_gamma: reverse width 2 ok
// CHECK: gamma: width 2 ok
// CHECK: gamma: reverse width 2 ok
// CHECK: all ok

#include "warp_functions.h"

#ifdef HOST_HARNESS
#include "warp_check.h"
#include "warp_emulation.h"

#define DECLARE(F, T, E)                                                       \
  extern "C" void F##_values(const T *, T *);                                  \
  extern "C" void F##_tangents(const T *, const T *, T *);                     \
  extern "C" void F##_gradients(const T *, T *);                               \
  extern "C" void F##_tangents2(const T *, const T *, const T *, T *, T *);    \
  extern "C" void F##_gradients2(const T *, const T *, const T *, T *, T *);
WARP_FUNCTIONS(DECLARE)

int main() {
  int Failures = 0;
#define CHECK(F, T, E)                                                         \
  Failures += CHECK_WARP_FUNCTION_ON(warp_emulation::launch, 32, F, T);
  WARP_FUNCTIONS(CHECK)
#define CHECK_BATCHED(F, T, E)                                                 \
  Failures += CHECK_WARP_BATCHED_ON(warp_emulation::launch, 32, F, T);       \
  Failures += CHECK_WARP_BATCHED_REVERSE_ON(warp_emulation::launch, 32, F, T);
  WARP_FUNCTIONS(CHECK_BATCHED)
  if (Failures)
    return 1;
  std::puts("all ok");
}
#endif
