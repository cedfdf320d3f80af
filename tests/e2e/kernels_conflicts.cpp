// Kernel launches (<adcc/kernels.hpp>, CPU backend): work-items of
// different groups read the same inputs (a gather with a wide stencil and
// one value every item reads), so that their adjoint updates of shared
// memory meet; run on 4 worker threads, with the reverse kernel one group
// at a time and, with the pointers given as adcc::sized, in parallel. Gradient against analytic values
// and central differences, forward against reverse.
#include "kernels_check.h"

#include <adcc/kernels.hpp>
#include <cmath>
#include <cstdlib>

namespace {

constexpr int N = 64;
constexpr int R = 5; // each item reads 2R+1 neighbours and X[0]

struct Gather {
  void operator()(const adcc::index &Ix, const double *X, double *Y) const {
    int I = int(Ix.global_id());
    double S = 0;
    for (int K = -R; K <= R; ++K)
      S += (1.0 + 0.1 * K) * X[(I + K + N) % N] * X[(I + K + N) % N];
    Y[I] = S * std::exp(0.1 * X[0]);
  }
};

double lossOf(const double *Y) {
  double L = 0;
  for (int I = 0; I < N; ++I)
    L += Y[I] * (1 + 0.05 * I);
  return L;
}

double gatherLoss(const double *X, double *Y) {
  adcc::launch(adcc::cpu, Gather{}, adcc::range(N), adcc::range(4), X, Y);
  return lossOf(Y);
}

// The same with the pointers sized: the reverse kernel runs the groups in
// parallel, each worker on its own copy of the shadows.
double gatherLossSized(const double *X, double *Y) {
  adcc::launch(adcc::cpu, Gather{}, adcc::range(N), adcc::range(4),
               adcc::sized(X, N), adcc::sized(Y, N));
  return lossOf(Y);
}

// The analytic gradient: with s_i = sum_k c_k x_{i+k}^2, e = exp(0.1 x_0),
// L = sum_i w_i s_i e; dL/dx_j = sum_i w_i e c_{j-i} 2 x_j, plus
// 0.1 e sum_i w_i s_i for j = 0.
std::vector<double> analytic(const std::vector<double> &X) {
  std::vector<double> G(N, 0.0);
  double E = std::exp(0.1 * X[0]), Sum = 0;
  for (int I = 0; I < N; ++I) {
    double W = 1 + 0.05 * I, S = 0;
    for (int K = -R; K <= R; ++K) {
      int J = (I + K + N) % N;
      S += (1.0 + 0.1 * K) * X[J] * X[J];
      G[J] += W * E * (1.0 + 0.1 * K) * 2 * X[J];
    }
    Sum += W * S;
  }
  G[0] += 0.1 * E * Sum;
  return G;
}

} // namespace

int main() {
  // (Before the first launch starts the workers.)
  setenv("ADCC_KERNEL_THREADS", "4", 1);
  std::vector<double> X(N), Y(N, 0.0), DX(N, 0.0), DY(N, 0.0);
  for (int I = 0; I < N; ++I)
    X[I] = 0.3 + 0.02 * I - 0.001 * I * I;
  for (int Repeat = 0; Repeat < 3; ++Repeat) {
    // Several times: the order in which the groups' reverse sweeps run
    // changes, the sums must not (up to rounding).
    std::fill(DX.begin(), DX.end(), 0.0);
    adcc::gradient(gatherLoss, adcc::Duplicated<const double>(X.data(), DX.data()),
                   adcc::Duplicated(Y.data(), DY.data()));
    std::vector<double> Want = analytic(X);
    for (int I = 0; I < N; ++I)
      CHECK_CLOSE(DX[I], Want[I], 1e-12);
  }
  for (int Repeat = 0; Repeat < 3; ++Repeat) {
    std::vector<double> DXs(N, 0.0), Ys(N, 0.0), DYs(N, 0.0);
    adcc::gradient(gatherLossSized,
                   adcc::Duplicated<const double>(X.data(), DXs.data()),
                   adcc::Duplicated(Ys.data(), DYs.data()));
    std::vector<double> Want = analytic(X);
    for (int I = 0; I < N; ++I)
      CHECK_CLOSE(DXs[I], Want[I], 1e-12);
  }
  checkCentral(
      [&](const std::vector<double> &Xs) {
        std::vector<double> Ys(N, 0.0);
        return gatherLoss(Xs.data(), Ys.data());
      },
      X, DX, 1e-6);
  std::vector<double> V = direction(N), Ys(N, 0.0), TY(N, 0.0);
  double T = adcc::forward(gatherLoss, adcc::Dual<const double *>(X.data(), V.data()),
                           adcc::Dual(Ys.data(), TY.data()));
  CHECK_CLOSE(T, dot(DX, V), 1e-10);
  return check_finish();
}
