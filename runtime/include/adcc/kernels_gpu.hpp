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

namespace detail {

template <typename K, typename... Ws>
__attribute__((global)) void gpuTrampoline(K Kernel, Ws... Args) {
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
#elif defined(__CUDA_ARCH__)
  const unsigned L[3] = {threadIdx.x, threadIdx.y, threadIdx.z};
  const unsigned G[3] = {blockIdx.x, blockIdx.y, blockIdx.z};
  const unsigned LR[3] = {blockDim.x, blockDim.y, blockDim.z};
  const unsigned GR[3] = {gridDim.x, gridDim.y, gridDim.z};
#endif
#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
  index Ix;
  for (int D = 0; D < 3; ++D) {
    Ix.Local[D] = L[D];
    Ix.Group[D] = G[D];
    Ix.LocalRange[D] = LR[D];
    Ix.GroupRange[D] = GR[D];
  }
  Ix.LocalOffset = 0;
  Ix.Backend = nullptr;
  Kernel(Ix, Unwrap<Ws>::get(Args)...);
#endif
}

[[noreturn]] inline void gpuLaunchError(const char *What) {
  std::fprintf(stderr, "adcc: kernel launch: %s\n", What);
  std::fflush(stderr);
  std::_Exit(1);
}

/// Launches the trampoline for the arguments in \p Tuple.
template <typename K, typename... Ws> struct GpuLaunch {
  using Tuple = std::tuple<K, Ws...>;
  static void run(const std::size_t *Grid, const std::size_t *Block,
                  void *Args) {
    std::apply(
        [&](const K &Kernel, const Ws &...As) {
          gpuTrampoline<K, Ws...>
              <<<dim3(unsigned(Grid[0]), unsigned(Grid[1]), unsigned(Grid[2])),
                 dim3(unsigned(Block[0]), unsigned(Block[1]),
                      unsigned(Block[2])),
                 gpu_local_bytes>>>(Kernel, As...);
        },
        *static_cast<Tuple *>(Args));
#if defined(__HIP__)
    hipError_t E = hipGetLastError();
    if (E == 0)
      E = hipDeviceSynchronize();
    if (E != 0)
      gpuLaunchError(hipGetErrorString(E));
#else
    cudaError_t E = cudaGetLastError();
    if (E == cudaSuccess)
      E = cudaDeviceSynchronize();
    if (E != cudaSuccess)
      gpuLaunchError(cudaGetErrorString(E));
#endif
  }
};

} // namespace detail
} // namespace adcc

/// Every GPU launch goes through this function, so that a derivative of a
/// host function that launches one stops with a message instead of giving
/// derivatives without the kernel's part.
extern "C" inline void adcc_kernel_launch_gpu(std::uintptr_t Run,
                                              const std::size_t *Grid,
                                              const std::size_t *Block,
                                              void *Args) {
  reinterpret_cast<void (*)(const std::size_t *, const std::size_t *, void *)>(
      Run)(Grid, Block, Args);
}

#ifdef __ADCC__
extern "C" {
[[noreturn]] inline void adcc_kernel_gpu_no_derivative() {
  adcc::detail::gpuLaunchError(
      "differentiating a launch on adcc::cuda or adcc::hip is not supported "
      "yet (launch on adcc::cpu in differentiated code)");
}
ADCC_FORWARD_RULE(adcc_kernel_launch_gpu)
inline void adcc_kernel_launch_gpu_fwd(std::uintptr_t, const std::size_t *,
                                       const std::size_t *, const std::size_t *,
                                       const std::size_t *, void *, void *) {
  adcc_kernel_gpu_no_derivative();
}
inline void *adcc_kernel_launch_gpu_aug(std::uintptr_t, const std::size_t *,
                                        const std::size_t *,
                                        const std::size_t *,
                                        const std::size_t *, void *, void *) {
  adcc_kernel_gpu_no_derivative();
}
ADCC_REVERSE_RULE(adcc_kernel_launch_gpu, adcc_kernel_launch_gpu_aug)
inline void adcc_kernel_launch_gpu_rev(std::uintptr_t, const std::size_t *,
                                       const std::size_t *, const std::size_t *,
                                       const std::size_t *, void *, void *,
                                       void *) {
  adcc_kernel_gpu_no_derivative();
}
}
#endif

namespace adcc {

/// Runs \p Kernel(ix, args...) for every item of \p Global, in blocks of \p
/// Local threads, on the current GPU; returns when it has ended.
/// (Differentiating a host function that launches on a GPU backend is not
/// supported yet: the derivative stops with a message. Launch on adcc::cpu
/// there.)
template <typename K, typename... Ws>
void launch(gpu_backend, const K &Kernel, range Global, range Local,
            Ws... Args) {
  detail::checkKernel<K, Ws...>();
  std::size_t Grid[3], Block[3];
  for (int D = 0; D < 3; ++D) {
    if (Local.n[D] == 0 || Global.n[D] % Local.n[D] != 0)
      detail::gpuLaunchError("the global range must be a non-zero multiple "
                             "of the work-group size in each dimension");
    Grid[D] = Global.n[D] / Local.n[D];
    Block[D] = Local.n[D];
  }
  using L = detail::GpuLaunch<K, Ws...>;
  typename L::Tuple Packed(Kernel, Args...);
  adcc_kernel_launch_gpu(reinterpret_cast<std::uintptr_t>(&L::run), Grid,
                         Block, &Packed);
}

} // namespace adcc

#endif // ADCC_KERNELS_GPU_HPP
