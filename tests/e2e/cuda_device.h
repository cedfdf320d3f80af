/* The CUDA end-to-end programs: where no CUDA device is present, the
 * program prints why and exits 77 (skipped). adcc_test::gpu is the GPU
 * backend (adcc::cuda, adcc::hip for -x hip). Include after
 * <adcc/kernels.hpp>. */
#ifndef ADCC_E2E_CUDA_DEVICE_H
#define ADCC_E2E_CUDA_DEVICE_H

#include <cstdio>
#include <cstdlib>

#if defined(__HIP__)
/* The same programs as HIP code, for AMDGPU (built without HIP's headers:
 * what <adcc/kernels.hpp> declares, included before this, and HIP's names
 * of the rest); the grid emulation runs them. */
extern "C" int hipGetDeviceCount(int *);
extern "C" int hipMallocManaged(void **, std::size_t, unsigned = 1);
template <typename T> int hipMallocManagedOf(T **P, std::size_t Bytes) {
  return hipMallocManaged(reinterpret_cast<void **>(P), Bytes);
}
#define cudaError_t hipError_t
#define cudaSuccess 0
#define cudaGetDeviceCount hipGetDeviceCount
#define cudaGetErrorString hipGetErrorString
#define cudaMallocManaged hipMallocManagedOf
#define cudaFree hipFree
namespace adcc_test {
inline constexpr auto gpu = adcc::hip;
}
/* (Without HIP's headers and device libraries, the math the kernels call
 * is LLVM's: the grid emulation runs it on the host.) */
__attribute__((device)) inline double exp(double X) { return __builtin_exp(X); }
#else
namespace adcc_test {
inline constexpr auto gpu = adcc::cuda;
}
#endif

inline void requireCudaDevice() {
  int Devices = 0;
  cudaError_t E = cudaGetDeviceCount(&Devices);
  if (E != cudaSuccess || Devices == 0) {
    std::printf("skipped: no CUDA device (%s)\n",
                E != cudaSuccess ? cudaGetErrorString(E) : "none found");
    std::exit(77);
  }
}

#endif
