// Kernel launches (<adcc/kernels.hpp>, CPU backend): a reduction in
// group-local memory (a tree of barriers) with a scalar Active kernel
// argument, whose adjoint is the sum over the work-items; again with the
// pointers given as adcc::sized (the reverse kernel in parallel, each
// worker on copies of the shadows). Gradient against analytic values and
// central differences, forward against reverse.
#include "kernels_check.h"

#include <adcc/kernels.hpp>
#include <cmath>
#include <cstdlib>

namespace {

constexpr int N = 128, WG = 16, Groups = N / WG;

// partial[g] = sum over the group's items of exp(s x_i) x_i; the loss is
// sum_g partial[g]^2.
template <bool Sized>
double reduceLossOf(double S, const double *X, double *Partial) {
  auto Kernel = [](const adcc::index &Ix, double S, const double *X,
                   double *Partial) {
    double *Sums = Ix.local_memory<double>(WG);
    std::size_t L = Ix.local_id(), I = Ix.global_id();
    Sums[L] = std::exp(S * X[I]) * X[I];
    for (std::size_t Half = WG / 2; Half > 0; Half /= 2) {
      Ix.barrier();
      if (L < Half)
        Sums[L] += Sums[L + Half];
    }
    if (L == 0)
      Partial[Ix.group_id()] = Sums[0];
  };
  if constexpr (Sized)
    adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(WG), S,
                 adcc::sized(X, N), adcc::sized(Partial, Groups));
  else
    adcc::launch(adcc::cpu, Kernel, adcc::range(N), adcc::range(WG), S, X,
                 Partial);
  double Loss = 0;
  for (int G = 0; G < Groups; ++G)
    Loss += Partial[G] * Partial[G];
  return Loss;
}

template <bool Sized>
void check() {
  const double S = 0.4;
  std::vector<double> X(N), P(Groups, 0.0), DX(N, 0.0), DP(Groups, 0.0);
  for (int I = 0; I < N; ++I)
    X[I] = std::sin(0.1 * I);
  auto [DS] = adcc::gradient(reduceLossOf<Sized>, adcc::Active(S),
                             adcc::Duplicated<const double>(X.data(), DX.data()),
                             adcc::Duplicated(P.data(), DP.data()));
  // Analytic: p_g = sum e^{s x} x; dL/ds = sum_g 2 p_g sum e^{s x} x^2,
  // dL/dx_i = 2 p_g e^{s x} (1 + s x).
  double WantS = 0;
  for (int G = 0; G < Groups; ++G) {
    double Pg = 0, Ps = 0;
    for (int I = G * WG; I < (G + 1) * WG; ++I) {
      Pg += std::exp(S * X[I]) * X[I];
      Ps += std::exp(S * X[I]) * X[I] * X[I];
    }
    CHECK_CLOSE(P[G], Pg, 1e-13);
    WantS += 2 * Pg * Ps;
    for (int I = G * WG; I < (G + 1) * WG; ++I)
      CHECK_CLOSE(DX[I], 2 * Pg * std::exp(S * X[I]) * (1 + S * X[I]), 1e-12);
  }
  CHECK_CLOSE(DS, WantS, 1e-12);
  // Central differences in s and in x.
  std::vector<double> Ps(Groups);
  double H = 1e-6;
  double Up = reduceLossOf<Sized>(S + H, X.data(), Ps.data());
  double Down = reduceLossOf<Sized>(S - H, X.data(), Ps.data());
  CHECK_CLOSE(DS, (Up - Down) / (2 * H), 1e-6);
  checkCentral(
      [&](const std::vector<double> &Xs) {
        std::vector<double> Pp(Groups);
        return reduceLossOf<Sized>(S, Xs.data(), Pp.data());
      },
      X, DX, 1e-6);
  // Forward along (vs, vx).
  std::vector<double> V = direction(N), TP(Groups, 0.0);
  const double VS = -0.7;
  double T = adcc::forward(reduceLossOf<Sized>, adcc::Dual(S, VS),
                           adcc::Dual<const double *>(X.data(), V.data()),
                           adcc::Dual(Ps.data(), TP.data()));
  CHECK_CLOSE(T, DS * VS + dot(DX, V), 1e-10);
}

} // namespace

int main() {
  setenv("ADCC_KERNEL_THREADS", "3", 1);
  check<false>();
  check<true>();
  return check_finish();
}
