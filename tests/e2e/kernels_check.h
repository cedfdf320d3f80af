// Checks shared by the kernel launch tests (kernels_*.cpp): a gradient
// against central differences, and forward mode against reverse mode (the
// tangent along a direction equals the gradient's dot product with it).
#ifndef ADCC_E2E_KERNELS_CHECK_H
#define ADCC_E2E_KERNELS_CHECK_H

#include "check.h"

#include <vector>

/// Central differences of Loss(x) (a function of a std::vector) in each
/// component, against \p Grad.
template <typename Loss>
void checkCentral(const Loss &F, std::vector<double> X,
                  const std::vector<double> &Grad, double Tol) {
  const double H = 1e-6;
  for (std::size_t I = 0; I < X.size(); ++I) {
    double Saved = X[I];
    X[I] = Saved + H;
    double Up = F(X);
    X[I] = Saved - H;
    double Down = F(X);
    X[I] = Saved;
    CHECK_CLOSE(Grad[I], (Up - Down) / (2 * H), Tol);
  }
}

/// A direction that touches every component.
inline std::vector<double> direction(std::size_t N) {
  std::vector<double> V(N);
  for (std::size_t I = 0; I < N; ++I)
    V[I] = 0.5 + 0.25 * double((I * 7) % 5) - 0.1 * double(I % 3);
  return V;
}

inline double dot(const std::vector<double> &A, const std::vector<double> &B) {
  double S = 0;
  for (std::size_t I = 0; I < A.size(); ++I)
    S += A[I] * B[I];
  return S;
}

#endif
