/*===- adcc/kernels_gpu.hpp - The CUDA backend of <adcc/kernels.hpp> -*- C++ -*-===*
 *
 * Compiled with -x cuda: adcc::launch(adcc::cuda, ...) launches a
 * __global__ trampoline over the range, one block per work-group, that
 * calls the kernel with an index context made of the thread and block
 * indices. Group-local memory is the block's dynamic shared memory
 * (adcc::cuda_local_bytes per block); a barrier is __syncthreads(). The
 * launch waits for the kernel and reports a CUDA error as the CPU backend
 * reports its errors. The kernel must be callable on the device (a lambda
 * marked __device__ or __host__ __device__, or a functor whose call
 * operator is).
 *
 * Not part of the API: include <adcc/kernels.hpp>.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ADCC_KERNELS_GPU_HPP
#define ADCC_KERNELS_GPU_HPP

#if defined(__CUDA__) && !defined(__HIP__)

#include <cstdio>
#include <cstdlib>
#include <tuple>

namespace adcc {

struct cuda_backend {};
/// The CUDA device current on the calling thread, default stream.
inline constexpr cuda_backend cuda{};
/// The dynamic shared memory each block of a CUDA launch gets.
inline constexpr std::size_t cuda_local_bytes = 48 * 1024;

namespace detail {

template <typename K, typename... Ws>
__global__ void cudaTrampoline(K Kernel, Ws... Args) {
  index Ix;
  const unsigned L[3] = {threadIdx.x, threadIdx.y, threadIdx.z};
  const unsigned G[3] = {blockIdx.x, blockIdx.y, blockIdx.z};
  const unsigned LR[3] = {blockDim.x, blockDim.y, blockDim.z};
  const unsigned GR[3] = {gridDim.x, gridDim.y, gridDim.z};
  for (int D = 0; D < 3; ++D) {
    Ix.Local[D] = L[D];
    Ix.Group[D] = G[D];
    Ix.LocalRange[D] = LR[D];
    Ix.GroupRange[D] = GR[D];
  }
  Ix.LocalOffset = 0;
  Ix.Backend = nullptr;
  Kernel(Ix, Unwrap<Ws>::get(Args)...);
}

[[noreturn]] inline void cudaLaunchError(const char *What) {
  std::fprintf(stderr, "adcc: kernel launch: %s\n", What);
  std::fflush(stderr);
  std::_Exit(1);
}

} // namespace detail

namespace detail {

/// Launches the trampoline for the arguments in \p Tuple.
template <typename K, typename... Ws> struct CudaLaunch {
  using Tuple = std::tuple<K, Ws...>;
  static void run(const std::size_t *Grid, const std::size_t *Block,
                  void *Args) {
    std::apply(
        [&](const K &Kernel, const Ws &...As) {
          cudaTrampoline<K, Ws...>
              <<<dim3(unsigned(Grid[0]), unsigned(Grid[1]), unsigned(Grid[2])),
                 dim3(unsigned(Block[0]), unsigned(Block[1]),
                      unsigned(Block[2])),
                 cuda_local_bytes>>>(Kernel, As...);
        },
        *static_cast<Tuple *>(Args));
    cudaError_t E = cudaGetLastError();
    if (E == cudaSuccess)
      E = cudaDeviceSynchronize();
    if (E != cudaSuccess)
      cudaLaunchError(cudaGetErrorString(E));
  }
};

} // namespace detail
} // namespace adcc

/// Every CUDA launch goes through this function, so that a derivative of a
/// host function that launches one stops with a message instead of giving
/// derivatives without the kernel's part.
extern "C" inline void adcc_kernel_launch_cuda(std::uintptr_t Run,
                                               const std::size_t *Grid,
                                               const std::size_t *Block,
                                               void *Args) {
  reinterpret_cast<void (*)(const std::size_t *, const std::size_t *, void *)>(
      Run)(Grid, Block, Args);
}

#ifdef __ADCC__
extern "C" {
[[noreturn]] inline void adcc_kernel_cuda_no_derivative() {
  adcc::detail::cudaLaunchError(
      "differentiating a launch on adcc::cuda is not supported yet (launch "
      "on adcc::cpu in differentiated code)");
}
ADCC_FORWARD_RULE(adcc_kernel_launch_cuda)
inline void adcc_kernel_launch_cuda_fwd(std::uintptr_t, const std::size_t *,
                                        const std::size_t *,
                                        const std::size_t *, const std::size_t *,
                                        void *, void *) {
  adcc_kernel_cuda_no_derivative();
}
inline void *adcc_kernel_launch_cuda_aug(std::uintptr_t, const std::size_t *,
                                         const std::size_t *,
                                         const std::size_t *,
                                         const std::size_t *, void *, void *) {
  adcc_kernel_cuda_no_derivative();
}
ADCC_REVERSE_RULE(adcc_kernel_launch_cuda, adcc_kernel_launch_cuda_aug)
inline void adcc_kernel_launch_cuda_rev(std::uintptr_t, const std::size_t *,
                                        const std::size_t *,
                                        const std::size_t *, const std::size_t *,
                                        void *, void *, void *) {
  adcc_kernel_cuda_no_derivative();
}
}
#endif

namespace adcc {

/// Runs \p Kernel(ix, args...) for every item of \p Global, in blocks of \p
/// Local threads, on the current CUDA device; returns when it has ended.
/// (Differentiating a host function that launches on adcc::cuda is not
/// supported yet: the derivative stops with a message. Launch on adcc::cpu
/// there.)
template <typename K, typename... Ws>
void launch(cuda_backend, const K &Kernel, range Global, range Local,
            Ws... Args) {
  detail::checkKernel<K, Ws...>();
  std::size_t Grid[3], Block[3];
  for (int D = 0; D < 3; ++D) {
    if (Local.n[D] == 0 || Global.n[D] % Local.n[D] != 0)
      detail::cudaLaunchError("the global range must be a non-zero multiple "
                              "of the work-group size in each dimension");
    Grid[D] = Global.n[D] / Local.n[D];
    Block[D] = Local.n[D];
  }
  using L = detail::CudaLaunch<K, Ws...>;
  typename L::Tuple Packed(Kernel, Args...);
  adcc_kernel_launch_cuda(reinterpret_cast<std::uintptr_t>(&L::run), Grid,
                          Block, &Packed);
}

} // namespace adcc

#endif // __CUDA__
#endif // ADCC_KERNELS_GPU_HPP
