// <adcc/kernels.hpp> on a GPU: the same kernels (a tiled 2-D stencil in
// group-local memory with a barrier, a barrier-tree reduction) launched on
// adcc::cuda and on adcc::cpu give the same numbers. Skipped (exit 77, with
// the reason) where no CUDA device is present; derivatives of the CPU
// launches are checked by kernels_stencil.cpp and kernels_reduction.cpp.
#include "check.h"

#include <adcc/kernels.hpp>

constexpr int NX = 64, NY = 32, T = 16, WG = 128;

struct Stencil {
  __host__ __device__ void operator()(const adcc::index &Ix, const double *U,
                                      double *Out) const {
    constexpr int H = T + 2;
    double *Tile = Ix.local_memory<double>(H * H);
    int LX = int(Ix.local_id(0)), LY = int(Ix.local_id(1));
    int X = int(Ix.global_id(0)), Y = int(Ix.global_id(1));
    auto At = [](int X, int Y) { return ((Y + NY) % NY) * NX + (X + NX) % NX; };
    Tile[(LY + 1) * H + LX + 1] = U[At(X, Y)];
    if (LX == 0)
      Tile[(LY + 1) * H] = U[At(X - 1, Y)];
    if (LX == T - 1)
      Tile[(LY + 1) * H + T + 1] = U[At(X + 1, Y)];
    if (LY == 0)
      Tile[LX + 1] = U[At(X, Y - 1)];
    if (LY == T - 1)
      Tile[(T + 1) * H + LX + 1] = U[At(X, Y + 1)];
    Ix.barrier();
    const double *P = &Tile[(LY + 1) * H + LX + 1];
    Out[At(X, Y)] = P[0] + 0.2 * (P[-1] + P[1] + P[-H] + P[H] - 4 * P[0]) +
                    P[1] * P[H];
  }
};

struct Reduce {
  __host__ __device__ void operator()(const adcc::index &Ix, double S,
                                      const double *X, double *Partial) const {
    double *Sums = Ix.local_memory<double>(WG);
    std::size_t L = Ix.local_id();
    Sums[L] = exp(S * X[Ix.global_id()]);
    for (std::size_t Half = WG / 2; Half > 0; Half /= 2) {
      Ix.barrier();
      if (L < Half)
        Sums[L] += Sums[L + Half];
    }
    if (L == 0)
      Partial[Ix.group_id()] = Sums[0];
  }
};

int main() {
  int Devices = 0;
  cudaError_t E = cudaGetDeviceCount(&Devices);
  if (E != cudaSuccess || Devices == 0) {
    printf("skipped: no CUDA device (%s)\n",
           E != cudaSuccess ? cudaGetErrorString(E) : "none found");
    return 77;
  }
  const int M = NX * NY;
  double *U, *Gpu, *Cpu;
  cudaMallocManaged(&U, M * sizeof(double));
  cudaMallocManaged(&Gpu, M * sizeof(double));
  cudaMallocManaged(&Cpu, M * sizeof(double));
  for (int I = 0; I < M; ++I)
    U[I] = sin(0.1 * I);
  adcc::launch(adcc::cuda, Stencil{}, adcc::range(NX, NY), adcc::range(T, T),
               static_cast<const double *>(U), Gpu);
  adcc::launch(adcc::cpu, Stencil{}, adcc::range(NX, NY), adcc::range(T, T),
               static_cast<const double *>(U), Cpu);
  for (int I = 0; I < M; ++I)
    CHECK_CLOSE(Gpu[I], Cpu[I], 1e-14);
  const int Groups = M / WG;
  adcc::launch(adcc::cuda, Reduce{}, adcc::range(M), adcc::range(WG), 0.3,
               static_cast<const double *>(U), Gpu);
  adcc::launch(adcc::cpu, Reduce{}, adcc::range(M), adcc::range(WG), 0.3,
               static_cast<const double *>(U), Cpu);
  for (int G = 0; G < Groups; ++G)
    CHECK_CLOSE(Gpu[G], Cpu[G], 1e-13);
  cudaFree(U);
  cudaFree(Gpu);
  cudaFree(Cpu);
  return check_finish();
}
