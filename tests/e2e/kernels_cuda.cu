// <adcc/kernels.hpp> on a GPU: the same kernels (a tiled 2-D stencil in
// group-local memory with a barrier, a barrier-tree reduction with a scalar
// argument) launched on adcc::cuda and on adcc::cpu give the same numbers,
// and so do the derivatives of a host function that launches them: the
// gradient (augmented kernel with per-thread tape slots, reverse kernel with
// atomic adjoint updates, the scalar's adjoint summed over the threads) and
// the tangent, against each other and against central differences. Skipped
// (exit 77, with the reason) where no CUDA device is present; derivatives of
// the CPU launches alone are checked by kernels_stencil.cpp and
// kernels_reduction.cpp. Compiled with -x hip the GPU backend is adcc::hip
// (cuda_device.h): the grid emulation runs it so for AMDGPU.
#include <adcc/kernels.hpp>

#include "check.h"
#include "cuda_device.h"

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

constexpr int M = NX * NY, Groups = M / WG;

/// Stencil, then the reduction of exp(S * Out) per group; the loss is the
/// sum of the squares of the group sums. On the GPU or on the CPU.
template <bool Gpu>
double loss(double S, const double *U, double *Out, double *Partial) {
  if constexpr (Gpu) {
    adcc::launch(adcc_test::gpu, Stencil{}, adcc::range(NX, NY), adcc::range(T, T),
                 U, Out);
    adcc::launch(adcc_test::gpu, Reduce{}, adcc::range(M), adcc::range(WG), S,
                 static_cast<const double *>(Out), Partial);
  } else {
    adcc::launch(adcc::cpu, Stencil{}, adcc::range(NX, NY), adcc::range(T, T),
                 U, Out);
    adcc::launch(adcc::cpu, Reduce{}, adcc::range(M), adcc::range(WG), S,
                 static_cast<const double *>(Out), Partial);
  }
  double L = 0;
  for (int G = 0; G < Groups; ++G)
    L += Partial[G] * Partial[G];
  return L;
}

struct Grad {
  double DS, Tangent;
  double *DU;
};

/// The gradient and the tangent along (1, V) of loss<Gpu> at S, U.
template <bool Gpu>
Grad derivatives(double S, const double *U, const double *V, double *Out,
                 double *DOut, double *Partial, double *DPartial, double *DU) {
  for (int I = 0; I < M; ++I)
    DU[I] = DOut[I] = 0;
  for (int G = 0; G < Groups; ++G)
    DPartial[G] = 0;
  auto [DS] = adcc::gradient(loss<Gpu>, adcc::Active(S),
                             adcc::Duplicated<const double>(U, DU),
                             adcc::Duplicated(Out, DOut),
                             adcc::Duplicated(Partial, DPartial));
  double Tangent = adcc::forward(loss<Gpu>, adcc::Dual(S, 1.0),
                                 adcc::Dual<const double *>(U, V),
                                 adcc::Dual<double *>(Out, DOut),
                                 adcc::Dual<double *>(Partial, DPartial));
  return {DS, Tangent, DU};
}

int main() {
  requireCudaDevice();
  double *U, *Gpu, *Cpu;
  cudaMallocManaged(&U, M * sizeof(double));
  cudaMallocManaged(&Gpu, M * sizeof(double));
  cudaMallocManaged(&Cpu, M * sizeof(double));
  for (int I = 0; I < M; ++I)
    U[I] = sin(0.1 * I);
  adcc::launch(adcc_test::gpu, Stencil{}, adcc::range(NX, NY), adcc::range(T, T),
               static_cast<const double *>(U), Gpu);
  adcc::launch(adcc::cpu, Stencil{}, adcc::range(NX, NY), adcc::range(T, T),
               static_cast<const double *>(U), Cpu);
  for (int I = 0; I < M; ++I)
    CHECK_CLOSE(Gpu[I], Cpu[I], 1e-14);
  adcc::launch(adcc_test::gpu, Reduce{}, adcc::range(M), adcc::range(WG), 0.3,
               static_cast<const double *>(U), Gpu);
  adcc::launch(adcc::cpu, Reduce{}, adcc::range(M), adcc::range(WG), 0.3,
               static_cast<const double *>(U), Cpu);
  for (int G = 0; G < Groups; ++G)
    CHECK_CLOSE(Gpu[G], Cpu[G], 1e-13);
  // Derivatives: GPU against CPU, reverse against forward, and central
  // differences of the GPU primal.
  double *V, *DOut, *Partial, *DPartial, *DUGpu, *DUCpu;
  cudaMallocManaged(&V, M * sizeof(double));
  cudaMallocManaged(&DOut, M * sizeof(double));
  cudaMallocManaged(&Partial, Groups * sizeof(double));
  cudaMallocManaged(&DPartial, Groups * sizeof(double));
  cudaMallocManaged(&DUGpu, M * sizeof(double));
  cudaMallocManaged(&DUCpu, M * sizeof(double));
  for (int I = 0; I < M; ++I)
    V[I] = cos(0.37 * I);
  const double S = 0.3;
  const double *CU = U;
  Grad G = derivatives<true>(S, CU, V, Gpu, DOut, Partial, DPartial, DUGpu);
  Grad C = derivatives<false>(S, CU, V, Cpu, DOut, Partial, DPartial, DUCpu);
  CHECK_CLOSE(G.DS, C.DS, 1e-10 * fabs(C.DS));
  CHECK_CLOSE(G.Tangent, C.Tangent, 1e-10 * fabs(C.Tangent));
  double Dot = G.DS;
  for (int I = 0; I < M; ++I) {
    CHECK_CLOSE(DUGpu[I], DUCpu[I], 1e-10 * (1 + fabs(DUCpu[I])));
    Dot += DUGpu[I] * V[I];
  }
  CHECK_CLOSE(Dot, G.Tangent, 1e-9 * fabs(G.Tangent));
  const double H = 1e-6;
  double Up = loss<true>(S + H, CU, Gpu, Partial);
  double Down = loss<true>(S - H, CU, Gpu, Partial);
  CHECK_CLOSE((Up - Down) / (2 * H), G.DS, 1e-5 * fabs(G.DS));
  cudaFree(V);
  cudaFree(DOut);
  cudaFree(Partial);
  cudaFree(DPartial);
  cudaFree(DUGpu);
  cudaFree(DUCpu);
  cudaFree(U);
  cudaFree(Gpu);
  cudaFree(Cpu);
  return check_finish();
}
