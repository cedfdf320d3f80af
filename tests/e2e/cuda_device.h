/* The CUDA end-to-end programs: where no CUDA device is present, the
 * program prints why and exits 77 (skipped). */
#ifndef ADCC_E2E_CUDA_DEVICE_H
#define ADCC_E2E_CUDA_DEVICE_H

#include <cstdio>
#include <cstdlib>

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
