// Kernel launches (<adcc/kernels.hpp>, CPU backend): a tiled 2-D stencil
// in group-local memory (each group loads its tile and a halo, waits at a
// barrier, computes into a second local array, waits again and writes);
// the reverse kernel mirrors the barriers. Gradient against analytic
// values and central differences, forward against reverse.
#include "kernels_check.h"

#include <adcc/kernels.hpp>
#include <cmath>
#include <cstdlib>

namespace {

constexpr int NX = 16, NY = 12, TX = 4, TY = 4; // periodic NX x NY grid
constexpr int HX = TX + 2, HY = TY + 2;          // a tile with its halo

int at(int X, int Y) { return ((Y + NY) % NY) * NX + (X + NX) % NX; }

// u'(x,y) = u + c (u_W + u_E + u_S + u_N - 4u) + u_E u_N, then smoothed
// with its east neighbour inside the tile when there is one.
double stencilLoss(const double *U, double *Out, double C) {
  auto Kernel = [](const adcc::index &Ix, const double *U, double *Out,
                   double C) {
    double *Tile = Ix.local_memory<double>(HX * HY);
    double *Next = Ix.local_memory<double>(TX * TY);
    int LX = int(Ix.local_id(0)), LY = int(Ix.local_id(1));
    int X = int(Ix.global_id(0)), Y = int(Ix.global_id(1));
    Tile[(LY + 1) * HX + LX + 1] = U[at(X, Y)];
    if (LX == 0)
      Tile[(LY + 1) * HX] = U[at(X - 1, Y)];
    if (LX == TX - 1)
      Tile[(LY + 1) * HX + TX + 1] = U[at(X + 1, Y)];
    if (LY == 0)
      Tile[LX + 1] = U[at(X, Y - 1)];
    if (LY == TY - 1)
      Tile[(TY + 1) * HX + LX + 1] = U[at(X, Y + 1)];
    Ix.barrier();
    const double *P = &Tile[(LY + 1) * HX + LX + 1];
    Next[LY * TX + LX] =
        P[0] + C * (P[-1] + P[1] + P[-HX] + P[HX] - 4 * P[0]) + P[1] * P[HX];
    Ix.barrier();
    double V = Next[LY * TX + LX];
    if (LX + 1 < TX)
      V = 0.5 * (V + std::sin(Next[LY * TX + LX + 1]));
    Out[at(X, Y)] = V;
  };
  adcc::launch(adcc::cpu, Kernel, adcc::range(NX, NY), adcc::range(TX, TY), U,
               Out, adcc::Const(C));
  double L = 0;
  for (int I = 0; I < NX * NY; ++I)
    L += Out[I] * Out[I] * (1 + 0.01 * I);
  return L;
}

// The same on the host, for the analytic gradient by hand below.
double stepAt(const std::vector<double> &U, int X, int Y, double C) {
  double P = U[at(X, Y)];
  return P + C * (U[at(X - 1, Y)] + U[at(X + 1, Y)] + U[at(X, Y - 1)] +
                  U[at(X, Y + 1)] - 4 * P) +
         U[at(X + 1, Y)] * U[at(X, Y + 1)];
}

/// dL/du by the chain rule through the two stages.
std::vector<double> analytic(const std::vector<double> &U, double C) {
  const int M = NX * NY;
  std::vector<double> DNext(M, 0.0), DU(M, 0.0);
  for (int Y = 0; Y < NY; ++Y)
    for (int X = 0; X < NX; ++X) {
      double Next = stepAt(U, X, Y, C), V = Next;
      bool Smooth = X % TX + 1 < TX;
      double E = Smooth ? stepAt(U, X + 1, Y, C) : 0;
      if (Smooth)
        V = 0.5 * (Next + std::sin(E));
      int I = at(X, Y);
      double DV = 2 * V * (1 + 0.01 * I);
      if (Smooth) {
        DNext[I] += 0.5 * DV;
        DNext[at(X + 1, Y)] += 0.5 * std::cos(E) * DV;
      } else {
        DNext[I] += DV;
      }
    }
  for (int Y = 0; Y < NY; ++Y)
    for (int X = 0; X < NX; ++X) {
      double D = DNext[at(X, Y)];
      DU[at(X, Y)] += (1 - 4 * C) * D;
      DU[at(X - 1, Y)] += C * D;
      DU[at(X + 1, Y)] += (C + U[at(X, Y + 1)]) * D;
      DU[at(X, Y - 1)] += C * D;
      DU[at(X, Y + 1)] += (C + U[at(X + 1, Y)]) * D;
    }
  return DU;
}

} // namespace

int main() {
  setenv("ADCC_KERNEL_THREADS", "4", 1);
  const int M = NX * NY;
  const double C = 0.15;
  std::vector<double> U(M), Out(M, 0.0), DU(M, 0.0), DOut(M, 0.0);
  for (int I = 0; I < M; ++I)
    U[I] = std::cos(0.37 * I) * 0.8;
  adcc::gradient(stencilLoss, adcc::Duplicated<const double>(U.data(), DU.data()),
                 adcc::Duplicated(Out.data(), DOut.data()), adcc::Const(C));
  std::vector<double> Want = analytic(U, C);
  for (int I = 0; I < M; ++I)
    CHECK_CLOSE(DU[I], Want[I], 1e-12);
  checkCentral(
      [&](const std::vector<double> &Us) {
        std::vector<double> Os(M, 0.0);
        return stencilLoss(Us.data(), Os.data(), C);
      },
      U, DU, 1e-6);
  std::vector<double> V = direction(M), Os(M, 0.0), TO(M, 0.0);
  double T = adcc::forward(stencilLoss, adcc::Dual<const double *>(U.data(), V.data()),
                           adcc::Dual(Os.data(), TO.data()), adcc::Const(C));
  CHECK_CLOSE(T, dot(DU, V), 1e-10);
  return check_finish();
}
