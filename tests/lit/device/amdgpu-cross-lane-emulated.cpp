// The program's own AMDGPU cross-lane reads of floating-point bits, checked
// numerically without a GPU: readlane of a double's two halves and
// readfirstlane of a float's bits (which the optimizer folds into
// readlane.f64 and readfirstlane.f32 of the values), and ds_bpermute of a
// float's bits (a permutation, and a gather where two lanes read one), and
// DPP moves (update_dpp, mov_dpp) of a float's and a double's bits (a row
// shift whose first lanes keep their old value, a quad broadcast, a mirror
// under row and bank masks with an old value of 0.25, a wave rotation),
// differentiated in both modes at -O2 (gfx90a; objects for gfx90a and
// gfx942 too),
// rewritten for the host
// model of one wavefront (tests/gpu/emulation/amdgcn_host_ir.py,
// wave_emulation.h) and run: for y_l = f(x_l) on lane l and L = sum_l y_l,
// the gradient against central differences and the tangents
// (tests/gpu/warp_check.h). The reverse of a read from lane k adds the
// adjoints of every lane that read it into lane k's.
// At -O0 the bit casts go through stack slots: lit amdgpu-cross-lane.c.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only -O2 -S -emit-llvm %s -o %t/o2.ll
// RUN: FileCheck %s --check-prefix=IR < %t/o2.ll
// RUN: %python %S/../../gpu/emulation/amdgcn_host_ir.py %t/o2.ll %host-triple > %t/h2.ll
// RUN: %clang -O0 -Wno-override-module -c %t/h2.ll -o %t/h2.o
// RUN: %clang++ -std=c++20 -O1 -DHOST_HARNESS -I%S/../../gpu/emulation -I%S/../../gpu -x c++ %s -x none %t/h2.o -o %t/run2 -lpthread
// RUN: %t/run2 | FileCheck %s
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx942 --cuda-device-only --no-gpu-bundle-output -O2 -c %s -o %t/k942.o
// RUN: llvm-readelf -h -s %t/k942.o | FileCheck %s --check-prefix=OBJ
// RUN: %adcc++ -std=c++17 -x hip -nogpuinc -nogpulib --offload-arch=gfx90a --cuda-device-only --no-gpu-bundle-output -O2 -c %s -o %t/k90a.o
// RUN: llvm-readelf -h -s %t/k90a.o | FileCheck %s --check-prefix=OBJ
// OBJ: Machine: EM_AMDGPU
// OBJ: lane_broadcast_gradients
// CHECK-NOT: FAIL
// CHECK: lane_broadcast: ok
// CHECK: first_lane: ok
// CHECK: permuted: ok
// CHECK: gathered: ok
// CHECK: row_shift: ok
// CHECK: quad_broadcast: ok
// CHECK: masked_mirror: ok
// CHECK: wave_rotate: ok
// CHECK: all ok
// (the holders and the rules inlined; no call of them left)
// IR-NOT: call {{.*}}@adcc.amdgcn.
// IR: call double @llvm.amdgcn.readlane.f64(

#define CROSS_LANE_FUNCTIONS(X)                                                \
  X(lane_broadcast, double, D) X(first_lane, float, F)                         \
  X(permuted, float, F) X(gathered, float, F) X(row_shift, float, F)           \
  X(quad_broadcast, float, F) X(masked_mirror, float, F)                       \
  X(wave_rotate, double, D)

#ifdef __HIP__
// (without HIP's headers)
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))

extern __device__ double __enzyme_fwddiff(void *, ...);
extern __device__ double __enzyme_autodiff(void *, ...);
extern __device__ float __enzyme_fwddiff_f(void *, ...) asm("__enzyme_fwddiff");
extern __device__ float __enzyme_autodiff_f(void *, ...) asm("__enzyme_autodiff");

__device__ inline unsigned item() { return __builtin_amdgcn_workitem_id_x(); }

// Lane k's double, read by every lane as two 32-bit halves.
__device__ double readLane(double v, int k) {
  long long b = __builtin_bit_cast(long long, v);
  int lo = __builtin_amdgcn_readlane((int)b, k);
  int hi = __builtin_amdgcn_readlane((int)(b >> 32), k);
  return __builtin_bit_cast(double, ((long long)hi << 32) | (unsigned)lo);
}

__device__ float permute(int lane, float v) {
  return __builtin_bit_cast(
      float, __builtin_amdgcn_ds_bpermute(lane << 2, __builtin_bit_cast(int, v)));
}

// y_l = x_5^2 x_l + x_l^3 / 2
__device__ double lane_broadcast(double x) {
  return readLane(x * x, 5) * x + 0.5 * x * x * x;
}

// y_l = (x_0 (1 + 0.05 * 0)) x_l: the first lane's value
__device__ float first_lane(float x) {
  float v = x * (1 + 0.05f * item());
  float w = __builtin_bit_cast(
      float, __builtin_amdgcn_readfirstlane(__builtin_bit_cast(int, v)));
  return w * x + v;
}

// y_l = v_(5 l + 3 mod 64) x_l, v = x^2 (lane l reads its own source once)
__device__ float permuted(float x) {
  return permute((5 * item() + 3) % 64, x * x) * x;
}

// y_l = v_(l / 2) x_l (lanes 2j and 2j + 1 both read lane j)
__device__ float gathered(float x) {
  float v = x * x * (1 + 0.01f * item());
  return permute(item() / 2, v) * (x + 0.5f);
}

// DPP moves of a float's bits (update_dpp with a constant old value,
// mov_dpp) and a double's (update_dpp of a double).
#define DPP_F(OLD, V, CTRL, ROWS, BANKS, BOUND)                                 \
  __builtin_bit_cast(float, __builtin_amdgcn_update_dpp(                        \
                                OLD, __builtin_bit_cast(int, V), CTRL, ROWS,   \
                                BANKS, BOUND))

// y_l = v_(l - 1) x_l within rows of 16 (lane 0 of a row keeps 0)
__device__ float row_shift(float x) {
  float v = x * x * (1 + 0.02f * item());
  return DPP_F(0, v, 0x111, 0xf, 0xf, false) * x + 0.1f * v;
}

// y_l = v_(4 (l / 4)) (x_l + 1): four lanes read one (quad_perm [0,0,0,0])
__device__ float quad_broadcast(float x) {
  float v = x * x * x;
  float w = __builtin_bit_cast(
      float, __builtin_amdgcn_mov_dpp(__builtin_bit_cast(int, v), 0x00, 0xf,
                                      0xf, true));
  return w * (x + 1);
}

// y_l = v_(mirror l) x_l in rows 0 and 2 and banks 0, 1, 3; 0.25 x_l elsewhere
__device__ float masked_mirror(float x) {
  float v = x * (2 - 0.01f * item());
  float w = DPP_F(0x3e800000, v, 0x140, 0x5, 0xb, false); // (old: 0.25f)
  return w * x;
}

// y_l = v_(l - 1 mod 64) x_l, doubles (wave_ror:1)
__device__ double wave_rotate(double x) {
  double v = x * x + 0.5 * x;
  return __builtin_amdgcn_update_dpp(0.0, v, 0x13c, 0xf, 0xf, false) * x;
}

#define FWD_D __enzyme_fwddiff
#define FWD_F __enzyme_fwddiff_f
#define REV_D __enzyme_autodiff
#define REV_F __enzyme_autodiff_f
#define KERNELS(F, T, E)                                                       \
  extern "C" __global__ void F##_values(const T *x, T *y) {                    \
    y[item()] = F(x[item()]);                                                  \
  }                                                                            \
  extern "C" __global__ void F##_tangents(const T *x, const T *dx, T *t) {     \
    t[item()] = FWD_##E((void *)F, x[item()], dx[item()]);                     \
  }                                                                            \
  extern "C" __global__ void F##_gradients(const T *x, T *g) {                 \
    g[item()] = REV_##E((void *)F, x[item()]);                                 \
  }
CROSS_LANE_FUNCTIONS(KERNELS)
#endif // __HIP__

#ifdef HOST_HARNESS
#include "warp_check.h"
#include "wave_emulation.h"

#define DECLARE(F, T, E)                                                       \
  extern "C" void F##_values(const T *, T *);                                  \
  extern "C" void F##_tangents(const T *, const T *, T *);                     \
  extern "C" void F##_gradients(const T *, T *);
CROSS_LANE_FUNCTIONS(DECLARE)

int main() {
  int Failures = 0;
#define CHECK(F, T, E)                                                         \
  Failures += CHECK_WARP_FUNCTION_ON(wave_emulation::launch, 64, F, T);
  CROSS_LANE_FUNCTIONS(CHECK)
  if (Failures)
    return 1;
  std::puts("all ok");
}
#endif
