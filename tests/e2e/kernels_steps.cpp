// Kernel launches (<adcc/kernels.hpp>, CPU backend) in a time loop: the
// host function launches the same kernel several times and swaps its
// input and output buffers between steps (each reverse kernel must use
// the arguments of its own launch); the kernel gathers through an integer
// index array given as adcc::Const at the host level, through group-local
// memory and a barrier, with a scalar Active argument. Gradient against
// central differences, forward against reverse.
#include "kernels_check.h"

#include <adcc/kernels.hpp>
#include <cmath>

namespace {

constexpr int N = 32, Steps = 5;

double steps(double *U, double *V, const int *Idx, double C) {
  auto Kernel = [](const adcc::index &Ix, const double *U, double *V,
                   const int *Idx, double C) {
    std::size_t I = Ix.global_id(), L = Ix.local_id();
    double *Tile = Ix.local_memory<double>(8);
    Tile[L] = U[Idx[I]];
    Ix.barrier();
    V[I] = U[I] + C * std::sin(Tile[(L + 1) % 8]);
  };
  for (int S = 0; S < Steps; ++S) {
    adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(8),
                 static_cast<const double *>(U), V, Idx, C);
    double *W = U;
    U = V;
    V = W;
  }
  double L = 0;
  for (int I = 0; I < N; ++I)
    L += U[I] * U[I];
  return L;
}

/// The loss from a copy of \p U0.
double lossAt(std::vector<double> U, const std::vector<int> &Idx, double C) {
  std::vector<double> V(N, 0.0);
  return steps(U.data(), V.data(), Idx.data(), C);
}

} // namespace

int main() {
  std::vector<double> U0(N);
  std::vector<int> Idx(N);
  for (int I = 0; I < N; ++I) {
    U0[I] = std::cos(0.3 * I);
    Idx[I] = (I * 5) % N;
  }
  const double C = 0.7;
  std::vector<double> U = U0, V(N, 0.0), DU(N, 0.0), DV(N, 0.0);
  auto [DC] = adcc::gradient(steps, adcc::Duplicated(U.data(), DU.data()),
                             adcc::Duplicated(V.data(), DV.data()),
                             adcc::Const<const int *>(Idx.data()),
                             adcc::Active(C));
  checkCentral([&](const std::vector<double> &Us) { return lossAt(Us, Idx, C); },
               U0, DU, 1e-6);
  const double H = 1e-6;
  CHECK_CLOSE(DC, (lossAt(U0, Idx, C + H) - lossAt(U0, Idx, C - H)) / (2 * H),
              1e-6);
  std::vector<double> Dir = direction(N), Us = U0, Vs(N, 0.0), TV(N, 0.0);
  std::vector<double> TU = Dir;
  const double VC = 0.4;
  double T = adcc::forward(steps, adcc::Dual(Us.data(), TU.data()),
                           adcc::Dual(Vs.data(), TV.data()),
                           adcc::Const<const int *>(Idx.data()),
                           adcc::Dual(C, VC));
  CHECK_CLOSE(T, dot(DU, Dir) + DC * VC, 1e-10);
  return check_finish();
}
