// A tiled stencil kernel for the GPU backends' tests (kernels-cuda.cu,
// kernels-hip.cpp): group-local memory and a barrier.
#include <adcc/kernels.hpp>

constexpr int WG = 64;

struct Stencil {
  __host__ __device__ void operator()(const adcc::index &Ix, const double *X,
                                      double *Y, int N) const {
    std::size_t G = Ix.global_id(), L = Ix.local_id();
    double *Tile = Ix.local_memory<double>(WG + 2);
    Tile[L + 1] = X[G];
    if (L == 0)
      Tile[0] = X[(G + N - 1) % N];
    if (L == WG - 1)
      Tile[WG + 1] = X[(G + 1) % N];
    Ix.barrier();
    Y[G] = Tile[L] * Tile[L + 1] + Tile[L + 2];
  }
};
