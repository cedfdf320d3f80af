/*===- adcc/kernels_gpu.hpp - CUDA and HIP backends of <adcc/kernels.hpp> -*- C++ -*-===*
 *
 * Compiled with -x cuda (adcc::cuda) or -x hip (adcc::hip):
 * adcc::launch(adcc::cuda, ...) launches a __global__ trampoline over the
 * range, one block per work-group, that calls the kernel with an index
 * context made of the thread and block indices. Group-local memory is the
 * block's dynamic shared memory (adcc::gpu_local_bytes per block); a
 * barrier is __syncthreads() (its AMDGPU form under HIP). The launch waits
 * for the kernel and reports an error of the runtime as the CPU backend
 * reports its errors. The kernel must be callable on the device (a lambda
 * marked __host__ __device__, or a functor whose call operator is).
 *
 * HIP code compiled without HIP's headers (-nogpuinc) gets the few
 * declarations of the HIP runtime that a launch needs from here.
 *
 * Not part of the API: include <adcc/kernels.hpp>.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_KERNELS_GPU_HPP
#define ADCC_KERNELS_GPU_HPP

#include <cstdio>
#include <cstdlib>
#include <tuple>

#if defined(__HIP__)
#if __has_include(<hip/hip_runtime.h>)
#include <hip/hip_runtime.h>
#else
// (What clang's HIP launches and the backend call, and the spellings of
// the attributes, as HIP's headers declare them.)
#ifndef __host__
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#endif
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1)
      : x(X), y(Y), z(Z) {}
};
typedef struct ihipStream_t *hipStream_t;
typedef int hipError_t;
extern "C" {
hipError_t __hipPushCallConfiguration(dim3 Grid, dim3 Block,
                                      std::size_t Shared = 0,
                                      hipStream_t Stream = nullptr);
hipError_t __hipPopCallConfiguration(dim3 *Grid, dim3 *Block,
                                     std::size_t *Shared, hipStream_t *Stream);
hipError_t hipLaunchKernel(const void *Kernel, dim3 Grid, dim3 Block,
                           void **Args, std::size_t Shared,
                           hipStream_t Stream);
hipError_t hipGetLastError(void);
enum hipMemcpyKind { hipMemcpyHostToDevice = 1, hipMemcpyDeviceToHost = 2 };
hipError_t hipMalloc(void **Pointer, std::size_t Bytes);
hipError_t hipFree(void *Pointer);
hipError_t hipMemset(void *Pointer, int Value, std::size_t Bytes);
hipError_t hipMemcpy(void *To, const void *From, std::size_t Bytes,
                     hipMemcpyKind Kind);
hipError_t hipDeviceSynchronize(void);
const char *hipGetErrorString(hipError_t);
}
#endif
#endif

namespace adcc {

#if defined(__HIP__)
struct hip_backend {};
/// The HIP device current on the calling thread, default stream.
inline constexpr hip_backend hip{};
using gpu_backend = hip_backend;
#else
struct cuda_backend {};
/// The CUDA device current on the calling thread, default stream.
inline constexpr cuda_backend cuda{};
using gpu_backend = cuda_backend;
#endif
/// The dynamic shared memory each block of a GPU launch gets.
inline constexpr std::size_t gpu_local_bytes = 48 * 1024;
/// The group-local memory a block of a derivative of a GPU launch may use:
/// as much again follows it for its shadow (CUDA: 48 KiB, 96 KiB in all;
/// HIP: 32 KiB, 64 KiB in all, the LDS of a workgroup).
#if defined(__HIP__)
inline constexpr std::size_t gpu_derivative_local_bytes = 32 * 1024;
#else
inline constexpr std::size_t gpu_derivative_local_bytes = 48 * 1024;
#endif

namespace detail {

#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
/// The index context of the calling GPU thread.
__attribute__((device)) inline index gpuIndex() {
#if defined(__HIP_DEVICE_COMPILE__)
  const unsigned L[3] = {__builtin_amdgcn_workitem_id_x(),
                         __builtin_amdgcn_workitem_id_y(),
                         __builtin_amdgcn_workitem_id_z()};
  const unsigned G[3] = {__builtin_amdgcn_workgroup_id_x(),
                         __builtin_amdgcn_workgroup_id_y(),
                         __builtin_amdgcn_workgroup_id_z()};
  const unsigned LR[3] = {__builtin_amdgcn_workgroup_size_x(),
                          __builtin_amdgcn_workgroup_size_y(),
                          __builtin_amdgcn_workgroup_size_z()};
  const unsigned GR[3] = {__builtin_amdgcn_grid_size_x() / LR[0],
                          __builtin_amdgcn_grid_size_y() / LR[1],
                          __builtin_amdgcn_grid_size_z() / LR[2]};
#else
  const unsigned L[3] = {threadIdx.x, threadIdx.y, threadIdx.z};
  const unsigned G[3] = {blockIdx.x, blockIdx.y, blockIdx.z};
  const unsigned LR[3] = {blockDim.x, blockDim.y, blockDim.z};
  const unsigned GR[3] = {gridDim.x, gridDim.y, gridDim.z};
#endif
  index Ix;
  for (int D = 0; D < 3; ++D) {
    Ix.Local[D] = L[D];
    Ix.Group[D] = G[D];
    Ix.LocalRange[D] = LR[D];
    Ix.GroupRange[D] = GR[D];
  }
  Ix.LocalOffset = 0;
  Ix.Backend = nullptr;
  return Ix;
}
#endif

/// The primal kernel: every thread runs the kernel's body once.
template <typename K, typename... Ws>
__attribute__((global)) void
gpuTrampoline(typename KernelArgs<K, Ws...>::Actives A,
              typename KernelArgs<K, Ws...>::Consts C) {
#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
  index Ix = gpuIndex();
  KernelArgs<K, Ws...>::item(&Ix, &A, &C);
#endif
}

[[noreturn]] inline void gpuLaunchError(const char *What) {
  std::fprintf(stderr, "adcc: kernel launch: %s\n", What);
  std::fflush(stderr);
  std::_Exit(1);
}

#if defined(__HIP__)
using gpuError = hipError_t;
inline const char *gpuErrorString(gpuError E) { return hipGetErrorString(E); }
#else
using gpuError = cudaError_t;
inline const char *gpuErrorString(gpuError E) { return cudaGetErrorString(E); }
#endif

/// Stops the program with the runtime's message when \p E is an error.
inline void gpuCheck(gpuError E, const char *What) {
  if (E == gpuError(0))
    return;
  char Message[512];
  std::snprintf(Message, sizeof Message, "%s: %s", What, gpuErrorString(E));
  gpuLaunchError(Message);
}

/// Waits for the kernel just launched; stops on an error of the runtime.
inline void gpuFinish() {
#if defined(__HIP__)
  gpuCheck(hipGetLastError(), "the launch failed");
  gpuCheck(hipDeviceSynchronize(), "the kernel failed");
#else
  gpuCheck(cudaGetLastError(), "the launch failed");
  gpuCheck(cudaDeviceSynchronize(), "the kernel failed");
#endif
}

/// What a GPU launch needs of one kernel and its argument types: the host
/// functions that launch each of its kernels (kernels_gpu_rules.hpp has
/// the derivative ones).
struct GpuDesc {
  void (*Primal)(const std::size_t *, const std::size_t *, void *,
                 const void *);
  /// Tangent kernel (Actives, Shadows, Consts); null without derivatives.
  void (*Tangent)(const std::size_t *, const std::size_t *, void *, void *,
                  const void *);
  /// The bytes of one work-item's tape slot (a query kernel, once).
  std::size_t (*SlotBytes)();
  /// Augmented and reverse kernels (Actives, Shadows, Consts in device
  /// memory, where they stay from one kernel to the other; slots, slot
  /// bytes; the augmented kernel's last: the device word that gets the most
  /// bytes an item recorded past its slot).
  void (*Augmented)(const std::size_t *, const std::size_t *, void *, void *,
                    const void *, void *, std::size_t, void *);
  void (*Reverse)(const std::size_t *, const std::size_t *, void *, void *,
                  const void *, void *, std::size_t);
  std::size_t ActivesBytes, ConstsBytes;
  void (*ClearScalars)(void *);
  void (*AddScalars)(void *, const void *);
  /// Whether a pointer argument has a primal but no shadow.
  bool (*MissingShadow)(const void *, const void *);
  /// Stops where a pointer read from an argument's data has a null shadow
  /// and would lose a derivative (Actives, Shadows); null without
  /// derivatives.
  void (*CheckPointers)(const void *, const void *);
};

template <typename K, typename... Ws> struct GpuPrimal {
  using Args = KernelArgs<K, Ws...>;
  using A = typename Args::Actives;
  using C = typename Args::Consts;
  static void run(const std::size_t *Grid, const std::size_t *Block, void *Av,
                  const void *Cv) {
    gpuTrampoline<K, Ws...>
        <<<dim3(unsigned(Grid[0]), unsigned(Grid[1]), unsigned(Grid[2])),
           dim3(unsigned(Block[0]), unsigned(Block[1]), unsigned(Block[2])),
           gpu_local_bytes>>>(*static_cast<A *>(Av),
                              *static_cast<const C *>(Cv));
    gpuFinish();
  }
};

} // namespace detail
} // namespace adcc

#include <adcc/kernels_gpu_rules.hpp>

namespace adcc {

/// Runs \p Kernel(ix, args...) for every item of \p Global, in blocks of \p
/// Local threads, on the current GPU; returns when it has ended. A host
/// function that launches this way is differentiable: pointer arguments
/// with a derivative need shadows in device memory (docs/gpu.md).
template <typename K, typename... Ws>
void launch(gpu_backend, const K &Kernel, range Global, range Local,
            Ws... Args) {
  detail::checkKernel<K, Ws...>();
  static_assert(((std::is_arithmetic_v<Ws> || std::is_pointer_v<Ws> ||
                  detail::IsConst<Ws>::value || detail::IsSized<Ws>::value) &&
                 ...),
                "adcc::launch: a kernel argument with a derivative is a "
                "number or a pointer; pass a struct by pointer, or as "
                "adcc::Const(value) when it carries no derivative");
  using Fns = detail::GpuFns<K, Ws...>;
  typename Fns::A Actives = Fns::Args::actives(Args...);
  typename Fns::C Consts = Fns::Args::consts(Kernel, Args...);
  adcc_kernel_launch_gpu(reinterpret_cast<std::uintptr_t>(&Fns::Desc),
                         Global.n[0], Global.n[1], Global.n[2], Local.n[0],
                         Local.n[1], Local.n[2], &Actives,
                         reinterpret_cast<std::uintptr_t>(&Consts));
}

} // namespace adcc

#endif // ADCC_KERNELS_GPU_HPP
