// The check of one function of warp_functions.h, wherever its kernels run:
// Run(Kind, X, E, Out) runs one kernel over the 32 lanes (Kind 0: values
// of X into Out; 1: tangents at X in the direction E; 2: gradients at X).
// The gradient dL/dx_j is compared with central differences of L and with
// the sum over the lanes of the tangents in the direction e_j. Prints
// "NAME: ok" or a FAIL line per wrong component; returns the failures.
#ifndef ADCC_TESTS_WARP_CHECK_H
#define ADCC_TESTS_WARP_CHECK_H

#include <cmath>
#include <cstdio>

template <class T, class Runner>
int checkWarpFunction(const char *Name, Runner &&Run) {
  const double Tol = sizeof(T) == 8 ? 1e-7 : 2e-3;
  const T H = sizeof(T) == 8 ? T(1e-6) : T(1e-2);
  T X[32], G[32];
  for (int L = 0; L < 32; ++L)
    X[L] = T(0.3 + 0.05 * L - 0.002 * L * L);
  Run(2, X, X, G);
  auto Total = [&](const T *At) {
    T Y[32];
    Run(0, At, At, Y);
    double S = 0;
    for (T V : Y)
      S += V;
    return S;
  };
  int Bad = 0;
  for (int J = 0; J < 32; ++J) {
    T Plus[32], Minus[32], E[32] = {}, Tan[32];
    for (int L = 0; L < 32; ++L)
      Plus[L] = Minus[L] = X[L];
    Plus[J] += H;
    Minus[J] -= H;
    double Fd = (Total(Plus) - Total(Minus)) / (2 * double(H));
    E[J] = 1;
    Run(1, X, E, Tan);
    double Fwd = 0;
    for (T V : Tan)
      Fwd += V;
    double Scale = std::fmax(1.0, std::fabs(Fd));
    if (std::fabs(G[J] - Fd) > Tol * Scale ||
        std::fabs(G[J] - Fwd) > Tol * Scale) {
      std::printf("FAIL %s: dL/dx[%d]: reverse %.12g, central differences "
                  "%.12g, forward %.12g\n",
                  Name, J, double(G[J]), Fd, Fwd);
      ++Bad;
    }
  }
  if (!Bad)
    std::printf("%s: ok\n", Name);
  return Bad;
}

#endif // ADCC_TESTS_WARP_CHECK_H
