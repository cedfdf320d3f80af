// Derivatives of HIP's warp shuffles on AMDGPU, checked numerically
// without a GPU: the device IR that adcc makes (-O0 and -O2, gfx90a) of
// tests/gpu/hip_warp_functions.h (HIP's __shfl, __shfl_up, __shfl_down,
// __shfl_xor of doubles and a float, with widths; the stand-ins of
// hip_shuffles.h; and the tapes of a loop of run-time trip count and of a
// recursion, in the work-item's private memory) is rewritten for the host
// (tests/gpu/emulation/amdgcn_host_ir.py: address spaces dropped, the
// AMDGPU intrinsics calls of a host model of one wavefront,
// tests/gpu/emulation/wave_emulation.h: 64 lanes, ds_bpermute, readlane,
// ballot, mbcnt) and run. For each function, with y_l = f(x_l) on lane l
// and L = sum_l y_l: the gradient kernel's dL/dx_j against central
// differences of the value kernel and against the tangent kernel
// (tests/gpu/warp_check.h).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -O0 -S -emit-llvm -I%S/../../gpu %s -o %t/o0.ll
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -O2 -S -emit-llvm -I%S/../../gpu %s -o %t/o2.ll
// RUN: %python %S/../../gpu/emulation/amdgcn_host_ir.py %t/o0.ll %host-triple > %t/h0.ll
// RUN: %python %S/../../gpu/emulation/amdgcn_host_ir.py %t/o2.ll %host-triple > %t/h2.ll
// RUN: %clang -O0 -Wno-override-module -c %t/h0.ll -o %t/h0.o
// RUN: %clang -O0 -Wno-override-module -c %t/h2.ll -o %t/h2.o
// RUN: %clang++ -std=c++20 -O1 -DHOST_HARNESS -I%S/../../gpu/emulation -I%S/../../gpu -x c++ %s -x none %t/h0.o -o %t/run0 -lpthread
// RUN: %clang++ -std=c++20 -O1 -DHOST_HARNESS -I%S/../../gpu/emulation -I%S/../../gpu -x c++ %s -x none %t/h2.o -o %t/run2 -lpthread
// RUN: %t/run0 | FileCheck %s
// RUN: %t/run2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: hip_down_tree: ok
// CHECK: hip_butterfly: ok
// CHECK: hip_up_scan: ok
// CHECK: hip_segments: ok
// CHECK: hip_broadcast: ok
// CHECK: hip_gather: ok
// CHECK: hip_run_time_loop: ok
// CHECK: hip_recursion: ok
// CHECK: all ok

#include "hip_warp_functions.h"

#ifdef HOST_HARNESS
#include "warp_check.h"
#include "wave_emulation.h"

#define DECLARE(F, T, E)                                                       \
  extern "C" void F##_values(const T *, T *);                                  \
  extern "C" void F##_tangents(const T *, const T *, T *);                     \
  extern "C" void F##_gradients(const T *, T *);
HIP_WARP_FUNCTIONS(DECLARE)

int main() {
  int Failures = 0;
#define CHECK(F, T, E)                                                         \
  Failures += CHECK_WARP_FUNCTION_ON(wave_emulation::launch, 64, F, T);
  HIP_WARP_FUNCTIONS(CHECK)
  if (Failures)
    return 1;
  std::puts("all ok");
}
#endif
